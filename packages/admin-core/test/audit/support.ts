import { expect } from 'vitest';
import { startTestAdmin, type SeededAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { actionsPlugin, ITEMS_PERMISSION } from '../fixtures/actions.ts';
import { LAB_MANAGE, labPlugin } from '../fixtures/field-types.ts';
import { enginePlugin, NOTES, NOTES_PERMISSION } from '../fixtures/engine.ts';
import { MANAGE, prefsPlugin } from '../fixtures/settings.ts';

export const AUDIT = 'cms/backend/audit';
const VIEW_AUDIT = 'cms.backend.view_audit';

export interface AuditRow {
  id: number;
  admin_id: number | null;
  actor: string;
  action: string;
  target: string;
  record_id: number | null;
  detail: string;
  fields: string[];
  request_id: string | null;
  ip: string | null;
}

export interface AuditHarness {
  t: TestAdmin;
  /** A superuser, login `root`. */
  su: Client;
  /** Notes, action items, the lab and the shop settings; not the audit log. Login `editor`. */
  editor: Client;
  /** `cms.backend.view_audit` alone. Login `viewer`. */
  viewer: Client;
  /** An admin with a password, for logins (login `Signer`). */
  seeded: SeededAdmin;
}

/** The fixture plugins whose writes the log records, and one admin of each kind. */
export async function startAudit(): Promise<AuditHarness> {
  const t = await startTestAdmin({
    adapter: 'node',
    plugins: [enginePlugin, actionsPlugin, prefsPlugin, labPlugin()],
    throttle: { login: { max: 3, windowSeconds: 60 }, address: { max: 1000, windowSeconds: 60 } },
  });
  return {
    t,
    su: await signIn(t, { isSuperuser: true, login: 'root' }),
    editor: await signIn(t, {
      login: 'editor',
      permissions: { [NOTES_PERMISSION]: 1, [ITEMS_PERMISSION]: 1, [MANAGE]: 1, [LAB_MANAGE]: 1 },
    }),
    viewer: await signIn(t, { login: 'viewer', permissions: { [VIEW_AUDIT]: 1 } }),
    seeded: await t.createAdmin({ login: 'Signer', password: 'correct horse battery' }),
  };
}

/** Every row of the log, oldest first. */
export async function auditRows(t: TestAdmin): Promise<AuditRow[]> {
  const found = await t.sql<AuditRow & { fields: unknown }>('select * from cms_audit order by id');
  return found.map((row) => ({
    ...row,
    record_id: row.record_id === null ? null : Number(row.record_id),
    admin_id: row.admin_id === null ? null : Number(row.admin_id),
    fields: (typeof row.fields === 'string' ? JSON.parse(row.fields) : row.fields) as string[],
  }));
}

/** The whole table as text: what must never show a secret. */
export const auditText = async (t: TestAdmin) => JSON.stringify(await t.sql('select * from cms_audit'));

/** A note of `client`'s, through the API (so its create is recorded). */
export async function createNote(client: Client, body: Record<string, unknown> = {}): Promise<number> {
  const res = await client.post(NOTES, { title: 'a note', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as number;
}
