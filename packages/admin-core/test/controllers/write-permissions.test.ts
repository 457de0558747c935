import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpError } from './startup-error.ts';
import { assertConfigError, expectConfigError } from '../support/config-error.ts';
import { type ConfigErrorCode, defineController, definePlugin, type FieldConfig } from '../../src/index.ts';
import { resolveSettingsFields } from '../../src/settings/fields.ts';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { expectError } from '../../../../test/support/auth.ts';
import { signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { ENGINE_TABLES, enginePlugin, Note, NOTES_PERMISSION } from '../fixtures/engine.ts';

/*
 * Field-level write permissions (issue 9, point 5; docs/controllers.md, "Field-level write
 * permissions"): a field declares the permission needed to set or change it (`write`), or to set
 * it to some values. `test/guard/notes` edits the engine plugin's notes.
 */
const CLOSE = 'test.guard.close';
const RANK = 'test.guard.rank';
const GUARD = 'test/guard/notes';

const guardFields = (): Record<string, FieldConfig> => ({
  title: { type: 'text', label: 'Title', required: true },
  status: {
    type: 'dropdown',
    label: 'Status',
    options: { open: 'Open', closed: 'Closed', gone: 'Gone' },
    default: 'open',
    write: { permissions: [CLOSE], values: ['closed', 'gone'] },
  },
  rank: { type: 'number', label: 'Rank', write: { permissions: [RANK] } },
  heading: { type: 'mltext', label: 'Heading', write: { permissions: [RANK] } },
  labels: { type: 'relation', label: 'Labels', write: { permissions: [RANK, CLOSE] } },
  pin: { type: 'password', label: 'PIN', virtual: true, write: { permissions: [RANK] } },
});

const guardController = (fields = guardFields()) =>
  defineController({
    name: 'notes',
    entity: Note,
    permissions: [NOTES_PERMISSION],
    form: { fields },
    hooks: {
      beforeSave(record, { principal, mode }) {
        if (mode === 'create') record.owner_id = principal.admin.id;
      },
    },
  });

const guardPlugin = (controller = guardController()) =>
  definePlugin({
    vendor: 'test',
    name: 'guard',
    permissions: [
      { code: CLOSE, label: 'Close notes' },
      { code: RANK, label: 'Rank notes' },
    ],
    controllers: [controller],
  });

describe('field-level write permissions: start-up checks', () => {
  /** The error `AdminCore.create` throws for the guard plugin with these fields (no database is reached). */
  async function startError(patch: (fields: Record<string, any>) => void): Promise<unknown> {
    const fields = guardFields() as Record<string, any>;
    patch(fields);
    return startUpError([enginePlugin, guardPlugin(guardController(fields))]);
  }

  const refusals: Array<[string, (fields: Record<string, any>) => void, string, ConfigErrorCode]> = [
    [
      'an undeclared permission code',
      (f) => (f.rank.write = { permissions: ['test.guard.nope'] }),
      'form.fields.rank.write.permissions',
      'permission_unknown',
    ],
    ['no permission at all', (f) => (f.rank.write = { permissions: [] }), 'form.fields.rank.write.permissions', 'field_option_invalid'],
    ['a list instead of a rule', (f) => (f.rank.write = [RANK]), 'form.fields.rank.write', 'field_option_invalid'],
    ['an unknown key', (f) => (f.rank.write = { permissions: [RANK], when: 'x' }), 'form.fields.rank.write', 'field_key_unknown'],
    [
      'empty values',
      (f) => (f.status.write = { permissions: [CLOSE], values: [] }),
      'form.fields.status.write.values',
      'field_option_invalid',
    ],
    [
      'a value that is not a scalar',
      (f) => (f.status.write = { permissions: [CLOSE], values: [['closed']] }),
      'form.fields.status.write.values',
      'field_option_invalid',
    ],
    [
      'a value that is not an option',
      (f) => (f.status.write = { permissions: [CLOSE], values: ['shut'] }),
      'form.fields.status.write.values',
      'field_options_conflict',
    ],
    [
      'a field without a value',
      (f) => (f.note = { type: 'partial', path: 'x', write: { permissions: [RANK] } }),
      'form.fields.note.write',
      'field_rule_invalid',
    ],
  ];
  for (const [what, patch, key, code] of refusals) {
    it(`refuses ${what}, naming plugin, controller, field and key`, async () => {
      assertConfigError(await startError(patch), code, { plugin: 'test.guard', controller: GUARD, key });
    });
  }

  it('refuses `write` on a settings form (a settings code has its own permissions)', () => {
    expectConfigError(
      () => resolveSettingsFields('test.guard', 'prefs', { limit: { type: 'number', write: { permissions: [RANK] } } }),
      'settings_field_refused',
      { plugin: 'test.guard', key: 'settings.prefs.form.fields.limit.write' },
    );
  });
});

describe('field-level write permissions over HTTP', () => {
  let t: TestAdmin;
  let su: Client;
  let plain: Client;
  let closer: Client;
  let labelIds: number[];

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [enginePlugin, guardPlugin()] });
    su = await signIn(t, { isSuperuser: true });
    plain = await signIn(t, { permissions: { [NOTES_PERMISSION]: 1 } });
    closer = await signIn(t, { permissions: { [NOTES_PERMISSION]: 1, [CLOSE]: 1 } });
    const rows = await t.sql<{ id: number }>(`insert into test_engine_labels (name) values ('guard-a'), ('guard-b') returning id`);
    labelIds = rows.map((row) => Number(row.id));
  });
  afterAll(() => t.close());

  async function refused(send: () => PromiseLike<unknown>, fields: string[]) {
    const before = await snapshot(t, ENGINE_TABLES);
    const res = (await send()) as Parameters<typeof expectError>[0];
    expectError(res, 403, 'forbidden');
    expect(Object.keys(res.body.error.details).sort()).toEqual([...fields].sort());
    expect(await snapshot(t, ENGINE_TABLES)).toEqual(before);
  }
  const created = async (client: Client, body: Record<string, unknown>) => {
    const res = await client.post(GUARD, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as Record<string, unknown> & { id: number };
  };

  it('a create that sets a guarded field without the permission is 403 naming it; nothing is written', async () => {
    await refused(() => plain.post(GUARD, { title: 'a', status: 'closed' }), ['status']);
    await refused(() => plain.post(GUARD, { title: 'a', rank: 3, heading: { en: 'Hi' }, pin: 'secret-pin' }), ['heading', 'pin', 'rank']);
    await refused(() => closer.post(GUARD, { title: 'a', labels: [labelIds[0]] }), ['labels']);
  });

  it('a create that sends what the record would hold anyway is no write', async () => {
    const note = await created(plain, { title: 'b', status: 'open', rank: null, heading: { en: '', de: '' }, labels: [], pin: '' });
    expect(note).toMatchObject({ status: 'open', rank: null, labels: [] });
    expect((await created(plain, { title: 'c', status: 'open' })).status).toBe('open');
  });

  it('an update that changes a guarded field is 403; an unchanged value is not a change', async () => {
    const note = await created(su, { title: 'd', status: 'gone', rank: 5, heading: { en: 'Hi', de: 'Hallo' }, labels: labelIds });
    await refused(() => plain.put(`${GUARD}/${note.id}`, { rank: 6 }), ['rank']);
    await refused(() => plain.put(`${GUARD}/${note.id}`, { rank: null }), ['rank']);
    await refused(() => plain.put(`${GUARD}/${note.id}`, { status: 'closed' }), ['status']);
    await refused(() => plain.put(`${GUARD}/${note.id}`, { labels: [labelIds[1]] }), ['labels']);
    await refused(() => plain.put(`${GUARD}/${note.id}`, { heading: { en: 'Hi', de: 'Servus' } }), ['heading']);
    await refused(() => plain.put(`${GUARD}/${note.id}`, { pin: 'another-pin' }), ['pin']);
    // The same values again, keys in another order, a number as a string: no write.
    const res = await plain.put(`${GUARD}/${note.id}`, {
      title: 'd2',
      status: 'gone',
      rank: '5',
      heading: { de: 'Hallo', en: 'Hi' },
      labels: labelIds,
      pin: '',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'd2', status: 'gone', rank: 5 });
    // Values outside `values` need no permission.
    expect((await plain.put(`${GUARD}/${note.id}`, { status: 'open' })).body.data.status).toBe('open');
    // The permission of a `values` rule allows those values.
    expect((await closer.put(`${GUARD}/${note.id}`, { status: 'closed' })).body.data.status).toBe('closed');
  });

  it('a superuser and an admin holding every permission of the rule may write', async () => {
    const note = await created(su, { title: 'e', status: 'closed', rank: 1, labels: [labelIds[0]], pin: 'secret-pin' });
    expect(note).toMatchObject({ status: 'closed', rank: 1, labels: [labelIds[0]] });
    const both = await signIn(t, { permissions: { [NOTES_PERMISSION]: 1, [CLOSE]: 1, [RANK]: 1 } });
    const res = await both.put(`${GUARD}/${note.id}`, { rank: 2, labels: labelIds });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // A per-admin deny wins over the role's grant.
    const roleId = await t.createRole('guard-ranker', { [NOTES_PERMISSION]: 1, [RANK]: 1 });
    const denied = await signIn(t, { roleId, permissions: { [RANK]: -1 } });
    await refused(() => denied.put(`${GUARD}/${note.id}`, { rank: 9 }), ['rank']);
  });

  it('the form schema serves readOnly: true on the fields the admin may not write', async () => {
    const readOnly = async (client: Client) =>
      Object.fromEntries(
        ((await client.get(`${GUARD}/schema/form`)).body.data.fields as Array<{ name: string; readOnly?: boolean }>).map((f) => [
          f.name,
          f.readOnly === true,
        ]),
      );
    expect(await readOnly(plain)).toEqual({ title: false, status: true, rank: true, heading: true, labels: true, pin: true });
    expect(await readOnly(closer)).toEqual({ title: false, status: false, rank: true, heading: true, labels: true, pin: true });
    expect(await readOnly(su)).toEqual({ title: false, status: false, rank: false, heading: false, labels: false, pin: false });
    // The rule itself is never served.
    const fields = (await plain.get(`${GUARD}/schema/form`)).body.data.fields as Array<Record<string, unknown>>;
    for (const field of fields) expect(field).not.toHaveProperty('write');
  });
});
