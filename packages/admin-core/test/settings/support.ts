import { expect } from 'vitest';
import type { Logger, PermissionMap } from '@cms/admin-core';
import { startTestAdmin, type TestAdmin, type TestAdminOptions } from '../../../../test/support/app.ts';
import { clientFor, type Client } from '../../../../test/support/client.ts';
import { prefsPlugin } from '../fixtures/settings.ts';

/** Every call of the admin's logger, as one searchable list. */
export function capturingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(JSON.stringify({ level, message, ...fields }));
  };
  return { lines, info: push('info'), warn: push('warn'), error: push('error') };
}

/** The settings fixture (`test.prefs`, unless `plugins` says otherwise), with a capturing logger. */
export async function startSettingsAdmin(overrides: TestAdminOptions = {}): Promise<TestAdmin & { logs: string[] }> {
  const logger = capturingLogger();
  const t = await startTestAdmin({ adapter: 'node', plugins: [prefsPlugin], logger, ...overrides });
  return Object.assign(t, { logs: logger.lines });
}

export async function signIn(
  t: TestAdmin,
  options: { isSuperuser?: boolean; permissions?: PermissionMap; roleId?: number | null } = {},
): Promise<Client> {
  const admin = await t.createAdmin(options);
  const { token } = await t.core.auth.issue(admin.id, 'bearer');
  return clientFor(t, admin.id, token);
}

/** The stored row of a settings code, or undefined. */
export async function storedRow(
  t: TestAdmin,
  code: string,
): Promise<{ code: string; data: Record<string, unknown>; secrets: Record<string, string> } | undefined> {
  const rows = await t.sql<{ code: string; data: unknown; secrets: unknown }>(
    'select code, data, secrets from cms_settings where code = ?',
    [code],
  );
  if (!rows[0]) return undefined;
  const parse = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, never>;
  return { code: rows[0].code, data: parse(rows[0].data), secrets: parse(rows[0].secrets) };
}

/** Every row of `cms_settings` as one comparable value. */
export const settingsSnapshot = (t: TestAdmin) =>
  t.sql('select code, data::text as data, secrets::text as secrets, updated_at from cms_settings order by code');

/** A 422 naming exactly these fields. */
export function expect422(
  res: { status: number; body: { error?: { code: string; details: Record<string, string[]> } } },
  keys: string[],
  code = 'validation_failed',
) {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.error!.code).toBe(code);
  expect(Object.keys(res.body.error!.details).sort()).toEqual([...keys].sort());
}
