import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { PRODUCTS, STOREFRONT, pressPlugin } from '../fixtures/press.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';

/** `test/press/storefront`: a singleton form (`GET /{ctl}/singleton`, docs/controllers.md, "Singletons"). */
describe('a singleton controller', () => {
  let t: TestAdmin;
  let su: Client;

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [pressPlugin] });
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  const rows = () =>
    t.sql<{ id: number; name: string; tagline: string | null }>('select id, name, tagline from test_press_storefront order by id');

  it('two concurrent first visits create exactly one record, and both answer it', async () => {
    expect(await rows()).toEqual([]);
    const answers = await Promise.all([
      su.get(`${STOREFRONT}/singleton`),
      su.get(`${STOREFRONT}/singleton`),
      su.get(`${STOREFRONT}/singleton`),
    ]);
    for (const res of answers) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({
        data: { id: expect.any(Number), name: '', tagline: null },
        meta: { labels: {}, actions: [], etag: res.headers.etag },
      });
    }
    const stored = await rows();
    expect(stored).toHaveLength(1);
    expect(new Set(answers.map((res) => res.body.data.id))).toEqual(new Set([Number(stored[0]!.id)]));
  });

  it('later visits answer the same record; it is saved through PUT /{id}', async () => {
    const { id } = (await su.get(`${STOREFRONT}/singleton`)).body.data;
    const saved = await su.put(`${STOREFRONT}/${id}`, { name: 'Acme Shop', tagline: 'Everything' });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({ id, name: 'Acme Shop', tagline: 'Everything' });
    expect((await su.get(`${STOREFRONT}/singleton`)).body.data).toEqual({ id, name: 'Acme Shop', tagline: 'Everything' });
    expect((await su.get(`${STOREFRONT}/${id}`)).body.data.name).toBe('Acme Shop');
    expect422(await su.put(`${STOREFRONT}/${id}`, { name: 'x', slogan: 'y' }), ['slogan']);
    expect(await rows()).toHaveLength(1);
  });

  it('list, create, bulk-delete, delete and the list schema answer 404; nothing changes', async () => {
    const { id } = (await su.get(`${STOREFRONT}/singleton`)).body.data;
    const before = await snapshot(t, ['test_press_storefront']);
    const answers = [
      await su.get(STOREFRONT),
      await su.post(STOREFRONT, { name: 'Second' }),
      await su.post(`${STOREFRONT}/bulk-delete`, { ids: [id] }),
      await su.delete(`${STOREFRONT}/${id}`),
      await su.get(`${STOREFRONT}/schema/list`),
    ];
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect(await snapshot(t, ['test_press_storefront'])).toEqual(before);
  });

  it('serves its form schema', async () => {
    const res = await su.get(`${STOREFRONT}/schema/form`);
    expect(res.status).toBe(200);
    expect(res.body.data.fields.map((field: { name: string }) => field.name)).toEqual(['name', 'tagline']);
  });

  it('a non-singleton controller has no singleton route', async () => {
    expect((await su.get(`${PRODUCTS}/singleton`)).status).toBe(404);
  });
});
