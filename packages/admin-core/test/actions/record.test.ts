import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cookieHeader, cookieLogin, expectError, XHR } from '../../../../test/support/auth.ts';
import { snapshot } from '../../../../test/support/client.ts';
import { ACTION_TABLES, ITEMS, journal, SINGLE } from '../fixtures/actions.ts';
import { NOTES } from '../fixtures/engine.ts';
import { itemRow, seedItem, startActions, type ActionsHarness } from './support.ts';

/** Record actions (docs/actions.md, "Record actions"): `POST /{ctl}/{id}/actions/{action}` and `meta.actions` on show. */
describe('record actions', () => {
  let h: ActionsHarness;
  beforeAll(async () => {
    h = await startActions();
  });
  afterAll(() => h.close());
  beforeEach(() => {
    journal.length = 0;
  });

  it('runs an action on the record, in the request locale, and answers AdminActionResult', async () => {
    const id = await seedItem(h.t, h.ann);
    const res = await h.ann.post(`${ITEMS}/${id}/actions/close`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ data: { fill: {}, message: 'Closed.', data: { id, by: h.ann.id } }, meta: {} });
    expect((await itemRow(h.t, id)).status).toBe('done');
    // An empty JSON object is no body either; the message follows the locale.
    const other = await seedItem(h.t, h.ann);
    const de = await h.ann.locale('de').post(`${ITEMS}/${other}/actions/close`, {});
    expect(de.body.data.message).toBe('Geschlossen.');
  });

  it('an action that answers nothing says "Done."', async () => {
    const id = await seedItem(h.t, h.rita, { status: 'done' });
    const res = await h.rita.post(`${ITEMS}/${id}/actions/reopen`);
    expect(res.body).toEqual({ data: { fill: {}, message: 'Done.' }, meta: {} });
  });

  it('refuses a body: the route takes none (a payload included)', async () => {
    const id = await seedItem(h.t, h.ann);
    const before = await snapshot(h.t, ACTION_TABLES);
    for (const body of [{ payload: 1 }, { values: {} }, { record_id: id }]) {
      const res = await h.ann.post(`${ITEMS}/${id}/actions/close`, body);
      expectError(res, 422, 'validation_failed');
    }
    expect(await snapshot(h.t, ACTION_TABLES)).toEqual(before);
    expect(journal).toEqual([]);
  });

  it("an unknown action, an inherited property name or another kind's action is 404", async () => {
    const id = await seedItem(h.t, h.ann);
    for (const name of ['nope', 'toString', '__proto__', 'constructor', 'bump', 'ping', 'assist', 'CLOSE']) {
      expectError(await h.ann.post(`${ITEMS}/${id}/actions/${name}`), 404, 'not_found');
    }
    // Singletons and controllers of another plugin have no such action either.
    expectError(await h.su.post(`${SINGLE}/1/actions/close`), 404, 'not_found');
    expectError(await h.su.post(`${NOTES}/1/actions/close`), 404, 'not_found');
  });

  it('a record out of the form scope, or missing, is 404 and nothing runs', async () => {
    const bobs = await seedItem(h.t, h.bob);
    const sealed = await seedItem(h.t, h.ann, { sealed: true });
    const before = await snapshot(h.t, ACTION_TABLES);
    expectError(await h.ann.post(`${ITEMS}/${bobs}/actions/close`), 404, 'not_found');
    expectError(await h.ann.post(`${ITEMS}/${sealed}/actions/close`), 404, 'not_found');
    for (const id of ['999999', '0', '-1', 'abc', '1.5', '99999999999'])
      expectError(await h.ann.post(`${ITEMS}/${id}/actions/close`), 404, 'not_found');
    expect(await snapshot(h.t, ACTION_TABLES)).toEqual(before);
    expect(journal).toEqual([]);
  });

  it('the form scope decides, not the list scope: an unlisted record of the form scope runs', async () => {
    const unlisted = await seedItem(h.t, h.ann, { listed: false });
    expect((await h.ann.post(`${ITEMS}/${unlisted}/actions/close`)).status).toBe(200);
  });

  it('an action that does not apply is 409 action_not_applicable and changes nothing', async () => {
    const id = await seedItem(h.t, h.ann, { status: 'done' });
    const before = await snapshot(h.t, ACTION_TABLES);
    const res = await h.ann.post(`${ITEMS}/${id}/actions/close`);
    expectError(res, 409, 'action_not_applicable');
    expect(res.body.error.message).toBe('This action does not apply to this record.');
    expect((await h.ann.locale('de').post(`${ITEMS}/${id}/actions/close`)).body.error.message).toBe(
      'Diese Aktion ist für diesen Datensatz nicht anwendbar.',
    );
    expect(await snapshot(h.t, ACTION_TABLES)).toEqual(before);
  });

  it("permissions: the controller's (403) and the action's own (403), checked before the record", async () => {
    const id = await seedItem(h.t, h.ann, { status: 'done' });
    const before = await snapshot(h.t, ACTION_TABLES);
    expectError(await h.nobody.post(`${ITEMS}/${id}/actions/close`), 403, 'forbidden');
    expectError(await h.ann.post(`${ITEMS}/${id}/actions/reopen`), 403, 'forbidden');
    // Even on a record out of scope: the action's gate comes first and says nothing about records.
    expectError(await h.ann.post(`${ITEMS}/999999/actions/reopen`), 403, 'forbidden');
    expect(await snapshot(h.t, ACTION_TABLES)).toEqual(before);
    // The same admin with the permission (through a role) and the record in scope: it runs.
    const ritas = await seedItem(h.t, h.rita, { status: 'done' });
    expect((await h.rita.post(`${ITEMS}/${ritas}/actions/reopen`)).status).toBe(200);
    // A superuser passes every gate.
    expect((await h.su.post(`${ITEMS}/${id}/actions/reopen`)).status).toBe(200);
  });

  it('an error from plugin code rolls back what the action wrote: opaque 500', async () => {
    const id = await seedItem(h.t, h.ann, { note: 'original' });
    const before = await snapshot(h.t, ACTION_TABLES);
    const res = await h.ann.post(`${ITEMS}/${id}/actions/explode`);
    expectError(res, 500, 'internal_error');
    expect(res.body.error.details).toEqual({});
    expect(JSON.stringify(res.body)).not.toMatch(/plugin code failed/);
    expect(await snapshot(h.t, ACTION_TABLES)).toEqual(before);
  });

  it('a Forbidden thrown by the action is a 403 (details resolved) and rolls back', async () => {
    const id = await seedItem(h.t, h.ann, { note: 'original' });
    const before = await snapshot(h.t, ACTION_TABLES);
    const res = await h.ann.post(`${ITEMS}/${id}/actions/refuse`);
    expectError(res, 403, 'forbidden');
    expect(res.body.error.details).toEqual({ note: ['Refused.'] });
    expect(await snapshot(h.t, ACTION_TABLES)).toEqual(before);
  });

  it('result data: exactly 256 KiB is sent; one byte more, a cycle or a BigInt is an opaque 500 with nothing written', async () => {
    const exact = await seedItem(h.t, h.ann, { note: String(256 * 1024) });
    const ok = await h.ann.post(`${ITEMS}/${exact}/actions/data`);
    expect(ok.status).toBe(200);
    expect(JSON.stringify(ok.body.data.data).length).toBe(256 * 1024);
    expect((await itemRow(h.t, exact)).counter).toBe(1);
    for (const note of [String(256 * 1024 + 1), 'cycle', 'bigint']) {
      const id = await seedItem(h.t, h.ann, { note });
      const before = await snapshot(h.t, ACTION_TABLES);
      const res = await h.ann.post(`${ITEMS}/${id}/actions/data`);
      expectError(res, 500, 'internal_error');
      expect(await snapshot(h.t, ACTION_TABLES)).toEqual(before);
    }
  });

  it('meta.actions lists the permitted actions that apply, per admin and per record', async () => {
    const open = await seedItem(h.t, h.rita);
    const done = await seedItem(h.t, h.rita, { status: 'done' });
    const names = async (client: typeof h.su, id: number) => {
      const res = await client.get(`${ITEMS}/${id}`);
      expect(res.status).toBe(200);
      return res.body.meta.actions as Array<Record<string, unknown>>;
    };
    const ritaOpen = await names(h.rita, open);
    expect(ritaOpen.map((a) => a.name)).toEqual(['close', 'explode', 'refuse', 'data']);
    expect(ritaOpen[0]).toEqual({ name: 'close', label: 'Close' });
    // `danger: false` is served as no key at all.
    expect(ritaOpen[1]).toEqual({ name: 'explode', label: 'Explode' });
    const ritaDone = await names(h.rita, done);
    expect(ritaDone.map((a) => a.name)).toEqual(['reopen', 'explode', 'refuse', 'data']);
    expect(ritaDone[0]).toEqual({ name: 'reopen', label: 'Reopen', confirm: 'Really?', danger: true });
    expect((await h.rita.locale('de').get(`${ITEMS}/${done}`)).body.meta.actions[0]).toEqual({
      name: 'reopen',
      label: 'Wieder öffnen',
      confirm: 'Wirklich?',
      danger: true,
    });
    // The superuser sees the same record with the same actions; ann may not reopen.
    expect((await names(h.su, done)).map((a) => a.name)).toEqual(['reopen', 'explode', 'refuse', 'data']);
    const annDone = await seedItem(h.t, h.ann, { status: 'done' });
    expect((await names(h.ann, annDone)).map((a) => a.name)).toEqual(['explode', 'refuse', 'data']);
    // A controller without record actions serves an empty list.
    const [{ id: note } = { id: 0 }] = await h.t.sql<{ id: number }>(
      "insert into test_engine_notes (title, owner_id) values ('N', ?) returning id",
      [h.su.id],
    );
    expect((await h.su.get(`${NOTES}/${note}`)).body.meta.actions).toEqual([]);
  });

  it('a cookie-only record action needs X-Requested-With like any cookie write', async () => {
    const admin = await h.t.createAdmin({ isSuperuser: true });
    const cookie = cookieHeader(await cookieLogin(h.t, admin));
    const id = await seedItem(h.t, h.ann);
    const path = `/backend/api/v1/${ITEMS}/${id}/actions/close`;
    expectError(await h.t.http.post(path).set('Cookie', cookie), 403, 'xhr_required');
    expect((await itemRow(h.t, id)).status).toBe('open');
    expect((await h.t.http.post(path).set('Cookie', cookie).set(XHR)).status).toBe(200);
  });
});
