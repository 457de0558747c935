import type { Logger } from '@cms/admin-core';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { prefsPlugin } from '../fixtures/settings.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { actionsPlugin, ITEMS_PERMISSION, REOPEN_PERMISSION } from '../fixtures/actions.ts';
import { enginePlugin, NOTES_PERMISSION } from '../fixtures/engine.ts';
import { pressPlugin } from '../fixtures/press.ts';

export interface ActionsHarness {
  t: TestAdmin;
  /** Superuser: every scope is every row. */
  su: Client;
  /** Items only: sees own items; may not reopen. */
  ann: Client;
  /** Items only, another owner. */
  bob: Client;
  /** Items and the reopen permission (through a role). */
  rita: Client;
  /** Signed in, without the controller's permission. */
  nobody: Client;
  /** Lines logged at error level (an opaque 500 is logged with its cause). */
  errors: Array<Record<string, unknown> | undefined>;
  close(): Promise<void>;
}

/**
 * `test/actions` beside two other fixture plugins (`test/engine`'s notes declare no action, `test/press`'s
 * posts declare the bulk action `publish` only), with one client per kind of admin.
 */
export async function startActions(): Promise<ActionsHarness> {
  const errors: ActionsHarness['errors'] = [];
  const logger: Logger = { info() {}, warn() {}, error: (_message, fields) => errors.push(fields as Record<string, unknown> | undefined) };
  const t = await startTestAdmin({ adapter: 'node', plugins: [enginePlugin, pressPlugin, prefsPlugin, actionsPlugin], logger });
  const reopener = await t.createRole('reopener', { [ITEMS_PERMISSION]: 1, [REOPEN_PERMISSION]: 1 });
  return {
    t,
    su: await signIn(t, { isSuperuser: true }),
    ann: await signIn(t, { permissions: { [ITEMS_PERMISSION]: 1 } }),
    bob: await signIn(t, { permissions: { [ITEMS_PERMISSION]: 1 } }),
    rita: await signIn(t, { roleId: reopener }),
    nobody: await signIn(t, { permissions: { [NOTES_PERMISSION]: 1 } }),
    errors,
    close: () => t.close(),
  };
}

/** Inserts one item owned by `owner` and answers its id. */
export async function seedItem(
  t: TestAdmin,
  owner: Client,
  values: { title?: string; status?: string; counter?: number; note?: string | null; listed?: boolean; sealed?: boolean } = {},
): Promise<number> {
  const rows = await t.sql<{ id: number }>(
    'insert into test_action_items (title, owner_id, status, counter, note, listed, sealed) values (?, ?, ?, ?, ?, ?, ?) returning id',
    [
      values.title ?? 'item',
      owner.id,
      values.status ?? 'open',
      values.counter ?? 0,
      values.note ?? null,
      values.listed ?? true,
      values.sealed ?? false,
    ],
  );
  return Number(rows[0]!.id);
}

/** One item's row. */
export async function itemRow(t: TestAdmin, id: number): Promise<Record<string, unknown>> {
  return (await t.sql('select * from test_action_items where id = ?', [id]))[0]!;
}
