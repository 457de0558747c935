import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../../test/support/app.ts';
import { cookieHeader, cookieLogin, expectError, XHR } from '../../../../test/support/auth.ts';
import { expect422, snapshot } from '../../../../test/support/client.ts';
import { ACTION_TABLES, ITEMS, jsonOfSize } from '../fixtures/actions.ts';
import { itemRow, seedItem, startActions, type ActionsHarness } from './support.ts';

const KIB = 1024;

/**
 * Widget actions (docs/actions.md, "Widget actions"): `POST /{ctl}/widgets/{field}` runs the
 * action of a `type: widget` form field with an AdminActionRequest; only the field's `fill` keys
 * with scalar values reach the action and the answer; `payload` at most 64 KiB, `data` at most
 * 256 KiB.
 */
describe('widget actions', () => {
  let h: ActionsHarness;
  beforeAll(async () => {
    h = await startActions();
  });
  afterAll(() => h.close());

  const widget = (client: ActionsHarness['su'], field: string, body?: unknown) => client.post(`${ITEMS}/widgets/${field}`, body).set(XHR);

  it('only the fill keys with scalar values reach the action, and only those come back', async () => {
    const res = await widget(h.ann, 'helper', {
      values: { title: 'hello', note: { nested: true }, status: null, counter: 3, owner_id: 9 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The action saw `title` and `status` (null is a scalar), not the object, nor keys outside `fill`.
    expect(res.body.data.data.values).toEqual({ title: 'hello', status: null });
    // It answered `note` as an array, `counter` and `status` too: only `title` and `status` remain.
    expect(res.body.data).toEqual({
      fill: { title: 'hello!', status: 'x' },
      message: 'assisted',
      data: { values: { title: 'hello', status: null }, record: null, size: null },
    });
  });

  it('every key is optional; an absent body is an empty request', async () => {
    expect((await widget(h.ann, 'helper', {})).body.data.fill).toEqual({ title: '!', status: 'x' });
    expect((await widget(h.ann, 'helper')).body.data.fill).toEqual({ title: '!', status: 'x' });
  });

  it('record_id loads the record through the form scope; out of scope or missing is 404', async () => {
    const mine = await seedItem(h.t, h.ann, { title: 'mine' });
    const res = await widget(h.ann, 'helper', { record_id: mine });
    expect(res.body.data.data.record).toEqual({ id: mine, title: 'mine' });
    expect(res.body.data.fill.title).toBe('mine!');
    // Unlisted is still in the form scope; sealed and bob's are not.
    expect((await widget(h.ann, 'helper', { record_id: await seedItem(h.t, h.ann, { listed: false }) })).status).toBe(200);
    for (const id of [await seedItem(h.t, h.bob), await seedItem(h.t, h.ann, { sealed: true }), 999999]) {
      expectError(await widget(h.ann, 'helper', { record_id: id }), 404, 'not_found');
    }
  });

  it('the body is an AdminActionRequest: other keys and wrong kinds are 422 on their key', async () => {
    expect422(await widget(h.ann, 'helper', { nope: 1, fill: {} }), ['nope', 'fill']);
    expect422(await widget(h.ann, 'helper', { record_id: '1' }), ['record_id']);
    expect422(await widget(h.ann, 'helper', { record_id: 1.5 }), ['record_id']);
    expect422(await widget(h.ann, 'helper', { record_id: 0 }), ['record_id']);
    expect422(await widget(h.ann, 'helper', { record_id: 2 ** 31 }), ['record_id']);
    expect422(await widget(h.ann, 'helper', { record_id: null }), ['record_id']);
    expect422(await widget(h.ann, 'helper', { values: [] }), ['values']);
    expect422(await widget(h.ann, 'helper', { values: 'title' }), ['values']);
    // A Validation thrown by the action is a 422 too (its key resolved).
    const refused = await widget(h.ann, 'helper', { payload: 'invalid' });
    expect422(refused, ['payload']);
    expect(refused.body.error.details.payload).toEqual(['Invalid.']);
  });

  it('payload: exactly 64 KiB encoded is accepted; one byte more is 422 on payload', async () => {
    const exact = await widget(h.ann, 'helper', { payload: jsonOfSize(64 * KIB) });
    expect(exact.status).toBe(200);
    expect(exact.body.data.data.size).toBe(64 * KIB);
    const over = await widget(h.ann, 'helper', { payload: jsonOfSize(64 * KIB + 1) });
    expect422(over, ['payload']);
    expect(over.body.error.details.payload).toEqual(['The payload may be at most 64 KiB once encoded as JSON.']);
    // Multi-byte characters count in bytes of UTF-8: 21845 × 3 bytes + 2 quotes is 64 KiB + 1.
    expect422(await widget(h.ann, 'helper', { payload: '€'.repeat(21845) }), ['payload']);
    expect((await widget(h.ann, 'helper', { payload: '€'.repeat(21844) })).status).toBe(200);
    // Any JSON value is a payload, null included.
    expect((await widget(h.ann, 'helper', { payload: null })).body.data.data.size).toBe(4);
  });

  it('result data: exactly 256 KiB is sent; one byte more is an opaque 500 and what the action wrote is rolled back', async () => {
    const id = await seedItem(h.t, h.ann);
    const ok = await widget(h.ann, 'blob_helper', { record_id: id, payload: { size: 256 * KIB } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.fill).toEqual({});
    expect(JSON.stringify(ok.body.data.data).length).toBe(256 * KIB);
    expect((await itemRow(h.t, id)).counter).toBe(1);
    const before = await snapshot(h.t, ACTION_TABLES);
    const over = await widget(h.ann, 'blob_helper', { record_id: id, payload: { size: 256 * KIB + 1 } });
    expectError(over, 500, 'internal_error');
    expect(over.body.error.details).toEqual({});
    expect(await snapshot(h.t, ACTION_TABLES)).toEqual(before);
    expect(h.errors.length).toBeGreaterThan(0);
  });

  it('a field that is not a widget, or no field, is 404', async () => {
    for (const field of ['title', 'counter', 'nope', 'assist', 'toString', '__proto__', 'HELPER'])
      expectError(await widget(h.su, field, {}), 404, 'not_found');
  });

  it("permissions: the controller's and the action's own are 403, before the body is read", async () => {
    expectError(await widget(h.nobody, 'helper', {}), 403, 'forbidden');
    expectError(await widget(h.ann, 'guarded_helper', {}), 403, 'forbidden');
    expectError(await widget(h.ann, 'guarded_helper', { nope: 1 }), 403, 'forbidden');
    expect((await widget(h.rita, 'guarded_helper', {})).body.data).toEqual({ fill: { title: 'guarded' }, message: 'Done.' });
  });

  it('the form schema offers a widget only to an admin who may run its action', async () => {
    const names = async (client: typeof h.ann) =>
      (await client.get(`${ITEMS}/schema/form`)).body.data.fields.map((f: { name: string }) => f.name);
    expect(await names(h.ann)).toContain('helper');
    expect(await names(h.ann)).not.toContain('guarded_helper');
    expect(await names(h.rita)).toContain('guarded_helper');
  });

  it('requires X-Requested-With on the bearer and the cookie transport', async () => {
    expectError(await h.ann.post(`${ITEMS}/widgets/helper`, {}), 403, 'xhr_required');
    const admin = await h.t.createAdmin({ isSuperuser: true });
    const cookie = cookieHeader(await cookieLogin(h.t, admin));
    expectError(await h.t.http.post(`${API}/${ITEMS}/widgets/helper`).set('Cookie', cookie).send({}), 403, 'xhr_required');
    expect((await h.t.http.post(`${API}/${ITEMS}/widgets/helper`).set('Cookie', cookie).set(XHR).send({})).status).toBe(200);
  });
});
