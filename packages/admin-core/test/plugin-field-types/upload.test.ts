import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { ITEMS, LAB_MANAGE, labPlugin } from '../fixtures/field-types.ts';

const TABLES = ['tfx_lab_items', 'tfx_lab_log'];

/** `POST /{ctl}/{id}/fields/{field}/upload` (docs/field-types.md, "Uploads") into the `stamp` type's upload handler. */
describe('uploads to a plugin field type', () => {
  let t: TestAdmin;
  let su: Client;
  let item: number;
  let hidden: number;

  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node', plugins: [labPlugin()] });
    su = await signIn(t, { isSuperuser: true });
    item = (await su.post(ITEMS, { name: 'Item' })).body.data.id;
    const [row] = await t.sql<{ id: number }>(`insert into tfx_lab_items (name) values ('hidden item') returning id`);
    hidden = Number(row!.id);
  });
  afterAll(() => t.close());

  const upload = (client: Client, path: string, content: string | Buffer, name = 'stamp.txt', field = 'file') =>
    t.http
      .post(`${API}/${path}`)
      .set('Authorization', `Bearer ${client.token}`)
      .attach(field, Buffer.isBuffer(content) ? content : Buffer.from(content), name);

  it('hands the file and the record to the handler and answers its result as data', async () => {
    const res = await upload(su, `${ITEMS}/${item}/fields/stamp/upload`, 'hello\n', 'Stamp.TXT');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      data: { text: 'hello', size: 6, extension: 'txt', record: item, field: 'stamp', options: { maxLength: 12 } },
      meta: {},
    });
  });

  it('answers 404 for a field without upload handler, a read-only field, an unknown field, an unknown or out-of-scope record', async () => {
    for (const path of [
      `${ITEMS}/${item}/fields/motto/upload`,
      `${ITEMS}/${item}/fields/code/upload`,
      `${ITEMS}/${item}/fields/name/upload`,
      `${ITEMS}/${item}/fields/nope/upload`,
      `${ITEMS}/999999/fields/stamp/upload`,
      `${ITEMS}/abc/fields/stamp/upload`,
      `${ITEMS}/${hidden}/fields/stamp/upload`,
    ]) {
      const res = await upload(su, path, 'hello');
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it("needs the controller's permissions", async () => {
    const stranger = await signIn(t);
    expect((await upload(stranger, `${ITEMS}/${item}/fields/stamp/upload`, 'hello')).status).toBe(403);
    const keeper = await signIn(t, { permissions: { [LAB_MANAGE]: 1 } });
    expect((await upload(keeper, `${ITEMS}/${item}/fields/stamp/upload`, 'hello')).status).toBe(200);
    expect((await t.http.post(`${API}/${ITEMS}/${item}/fields/stamp/upload`).attach('file', Buffer.from('x'), 'a.txt')).status).toBe(401);
  });

  it("refuses a file above the type's maxBytes with a 422 on file; exactly maxBytes is accepted", async () => {
    const res = await upload(su, `${ITEMS}/${item}/fields/stamp/upload`, Buffer.alloc(1025, 'a'));
    expect422(res, ['file']);
    expect((await upload(su, `${ITEMS}/${item}/fields/stamp/upload`, Buffer.alloc(1024, 'a'))).status).toBe(200);
  });

  it('refuses a name without an accepted extension, a missing file, another part name, extra fields, a JSON body', async () => {
    const path = `${ITEMS}/${item}/fields/stamp/upload`;
    const wrongName = await upload(su, path, 'hello', 'stamp.png');
    expect422(wrongName, ['file']);
    expect(wrongName.body.error.details.file).toEqual(['The file name must end in one of: txt.']);
    expect422(await upload(su, path, 'hello', 'stamp'), ['file']);
    expect422(await upload(su, path, 'hello', 'stamp.txt', 'upload'), ['file']);
    expect422(await t.http.post(`${API}/${path}`).set('Authorization', `Bearer ${su.token}`).field('note', 'x'), ['note']);
    const extra = await t.http
      .post(`${API}/${path}`)
      .set('Authorization', `Bearer ${su.token}`)
      .field('note', 'x')
      .attach('file', Buffer.from('hi'), 'a.txt');
    expect422(extra, ['note']);
    expect422(await su.post(path, { file: 'hello' }), ['file']);
  });

  it('a FieldError of the handler is a 422 on the form field, with its code', async () => {
    const res = await upload(su, `${ITEMS}/${item}/fields/stamp/upload`, 'bad');
    expect422(res, ['stamp'], 'stamp.bad_file');
    expect(res.body.error.details.stamp).toEqual(['This file holds no stamp.']);
  });

  it('any other error of the handler is an opaque 500 and what it wrote is rolled back, blobs included', async () => {
    const before = await snapshot(t, TABLES);
    const res = await upload(su, `${ITEMS}/${item}/fields/stamp/upload`, 'boom');
    expect(res.status).toBe(500);
    expect(res.body.error).toEqual({ code: 'internal_error', message: expect.any(String), details: {} });
    expect(await snapshot(t, TABLES)).toEqual(before);
    expect(await t.core.storage.exists('tfx/boom.txt')).toBe(false);
    // An answer that is not JSON data is a 500 too, decided before the commit.
    expect((await upload(su, `${ITEMS}/${item}/fields/stamp/upload`, 'function')).status).toBe(500);
    expect(await snapshot(t, TABLES)).toEqual(before);
    expect(await t.core.storage.exists('tfx/function.txt')).toBe(false);
    // The control: the same writes from a handler that succeeds are committed and kept.
    expect((await upload(su, `${ITEMS}/${item}/fields/stamp/upload`, 'log')).body.data).toEqual({ logged: true });
    expect(await t.sql('select note from tfx_lab_log')).toEqual([{ note: 'upload' }]);
    expect(await t.core.storage.exists('tfx/log.txt')).toBe(true);
  });

  it('a cookie session needs X-Requested-With, as every write', async () => {
    const login = await t.createAdmin({ isSuperuser: true });
    const signedIn = await t.http
      .post(`${API}/auth/login`)
      .set('X-Requested-With', 'XMLHttpRequest')
      .send({ login: login.login, password: login.password });
    const cookie = signedIn.headers['set-cookie'] as unknown as string[];
    const path = `${API}/${ITEMS}/${item}/fields/stamp/upload`;
    expect((await t.http.post(path).set('Cookie', cookie).attach('file', Buffer.from('hi'), 'a.txt')).status).toBe(403);
    const ok = await t.http
      .post(path)
      .set('Cookie', cookie)
      .set('X-Requested-With', 'XMLHttpRequest')
      .attach('file', Buffer.from('hi'), 'a.txt');
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});
