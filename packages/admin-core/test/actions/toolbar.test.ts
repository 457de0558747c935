import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API } from '../../../../test/support/app.ts';
import { cookieHeader, cookieLogin, expectError, XHR } from '../../../../test/support/auth.ts';
import { expect422 } from '../../../../test/support/client.ts';
import { ITEMS, journal, SINGLE } from '../fixtures/actions.ts';
import { startActions, type ActionsHarness } from './support.ts';

/**
 * Toolbar actions (docs/actions.md, "Toolbar actions") and the lists of actions in the list schema
 * (docs/actions.md, "Lists of actions (per admin)"): `POST /{ctl}/toolbar/{action}` takes exactly
 * `{}`, requires `X-Requested-With`, and answers an AdminActionResult whose `fill` is always empty.
 */
describe('toolbar actions', () => {
  let h: ActionsHarness;
  beforeAll(async () => {
    h = await startActions();
  });
  afterAll(() => h.close());
  beforeEach(() => {
    journal.length = 0;
  });

  const toolbar = (client: ActionsHarness['su'], name: string, body: unknown = {}) =>
    client.post(`${ITEMS}/toolbar/${name}`, body).set(XHR);

  it('runs with `{}` and answers AdminActionResult with an empty fill', async () => {
    const res = await toolbar(h.ann, 'ping');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.fill).toEqual({});
    expect(res.body.data.message).toMatch(/^Pong: \d+$/);
    // The context: the request's locale, and the settings service answered inside the transaction.
    expect(res.body.data.data.locale).toBe('en');
    expect(typeof res.body.data.data.settings).toBe('object');
    expect((await toolbar(h.ann.locale('de'), 'ping')).body.data.message).toMatch(/^Pong: \d+$/);
    expect(journal.map((entry) => entry.action)).toEqual(['ping', 'ping']);
  });

  it('runs in a transaction unless the action says `transaction: false`', async () => {
    const inside = await h.su.post(`${ITEMS}/toolbar/ping`, {}).set(XHR);
    expect(inside.status).toBe(200);
    const outside = await toolbar(h.su, 'outside');
    expect(outside.status, JSON.stringify(outside.body)).toBe(200);
    expect(outside.body.data).toEqual({ fill: {}, message: 'outside', data: { inTransaction: false } });
  });

  it('refuses every body but `{}`, a payload included: 422, and the action does not run', async () => {
    expect422(await toolbar(h.ann, 'ping', { payload: {} }), ['payload']);
    expect422(await toolbar(h.ann, 'ping', { payload: null }), ['payload']);
    expect422(await toolbar(h.ann, 'ping', { values: {}, record_id: 1 }), ['values', 'record_id']);
    const proto = await h.ann.post(`${ITEMS}/toolbar/ping`).set(XHR).set('Content-Type', 'application/json').send('{"__proto__": 1}');
    expect422(proto, ['body']);
    // No body at all is not `{}` either.
    const empty = await h.ann.post(`${ITEMS}/toolbar/ping`).set(XHR);
    expect422(empty, ['body']);
    expect(empty.body.error.details.body).toEqual(['This action takes no input: send the body {} (an empty JSON object).']);
    expect(journal).toEqual([]);
  });

  it('requires X-Requested-With on the bearer transport too, and on the cookie transport', async () => {
    expectError(await h.ann.post(`${ITEMS}/toolbar/ping`, {}), 403, 'xhr_required');
    const admin = await h.t.createAdmin({ isSuperuser: true });
    const cookie = cookieHeader(await cookieLogin(h.t, admin));
    expectError(await h.t.http.post(`${API}/${ITEMS}/toolbar/ping`).set('Cookie', cookie).send({}), 403, 'xhr_required');
    expect(journal).toEqual([]);
    expect((await h.t.http.post(`${API}/${ITEMS}/toolbar/ping`).set('Cookie', cookie).set(XHR).send({})).status).toBe(200);
  });

  it('an undeclared, unknown or other kind of action is 404; a singleton has no toolbar', async () => {
    for (const name of ['nope', 'create', 'delete', 'toString', 'bump', 'close', 'PING'])
      expectError(await toolbar(h.su, name), 404, 'not_found');
    expectError(await h.su.post(`${SINGLE}/toolbar/ping`, {}).set(XHR), 404, 'not_found');
    expect(journal).toEqual([]);
  });

  it("permissions: the controller's and the action's own are 403", async () => {
    expectError(await toolbar(h.nobody, 'ping'), 403, 'forbidden');
    expectError(await toolbar(h.ann, 'audit'), 403, 'forbidden');
    expect((await toolbar(h.rita, 'audit')).body.data).toEqual({ fill: {}, message: 'audited' });
  });
});

describe('lists of actions in the list schema, per admin', () => {
  let h: ActionsHarness;
  beforeAll(async () => {
    h = await startActions();
  });
  afterAll(() => h.close());

  it('bulkActions and toolbarActions hold only what the admin may run; toolbarButtons too', async () => {
    const schema = async (client: ActionsHarness['su']) => (await client.get(`${ITEMS}/schema/list`)).body.data;
    const ann = await schema(h.ann);
    expect(ann.bulkActions).toEqual([
      { name: 'bump', label: 'Bump', confirm: 'Bump them?' },
      { name: 'fail', label: 'Fail' },
    ]);
    expect(ann.toolbarActions).toEqual([
      { name: 'ping', label: 'Ping' },
      { name: 'outside', label: 'Outside' },
    ]);
    expect(ann.toolbarButtons).toEqual(['create', 'ping', 'delete', 'outside']);
    const rita = await schema(h.rita.locale('de'));
    expect(rita.bulkActions).toEqual([
      { name: 'bump', label: 'Hochzählen', confirm: 'Hochzählen?' },
      { name: 'restricted', label: 'Restricted' },
      { name: 'fail', label: 'Fail' },
    ]);
    // Declared order of `toolbar.buttons`, not registration order.
    expect(rita.toolbarActions).toEqual([
      { name: 'audit', label: 'Prüfen' },
      { name: 'ping', label: 'Ping' },
      { name: 'outside', label: 'Draußen' },
    ]);
    expect(rita.toolbarButtons).toEqual(['audit', 'create', 'ping', 'delete', 'outside']);
    expect((await schema(h.su)).toolbarActions.map((a: { name: string }) => a.name)).toEqual(['audit', 'ping', 'outside']);
  });
});
