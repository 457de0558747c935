import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { PRODUCTS, pressPlugin } from '../fixtures/press.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';

/**
 * The `accessories` relation of `test/press/products` (docs/relations.md): a belongsToMany of
 * products to products through `test_press_product_accessories`, with a `quantity` (1 to 99)
 * edited through the `pivot.form`; the toolbar links and unlinks only.
 */
describe('test/press/products: accessories', () => {
  let t: TestAdmin;
  let su: Client;
  let counter = 0;
  const TABLES = ['test_press_products', 'test_press_product_accessories'];

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [pressPlugin] });
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  const rel = (product: number) => `${PRODUCTS}/${product}/relations/accessories`;
  async function product(name = 'Product'): Promise<number> {
    counter += 1;
    const res = await su.post(PRODUCTS, { name: `${name} ${counter}`, sku: `ACC-${counter}-${Math.random().toString(36).slice(2, 7)}` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as number;
  }
  /** The pivot rows of a product: accessory id and quantity, by accessory id. */
  const pivots = (owner: number) =>
    t.sql<{ accessory_id: number; quantity: number }>(
      'select accessory_id, quantity from test_press_product_accessories where product_id = ? order by accessory_id',
      [owner],
    );
  const ids = (res: { body: { data: Array<{ id: number }> } }) => res.body.data.map((row) => row.id).sort((a, b) => a - b);

  it('serves the RelationSchema with the pivot form', async () => {
    const res = await su.get(`${PRODUCTS}/schema/relation/accessories`);
    expect(res.status).toBe(200);
    const schema = res.body.data;
    expect(Object.keys(schema).sort()).toEqual(['deferrable', 'kind', 'label', 'manage', 'messages', 'name', 'pivotForm', 'view']);
    expect(schema).toMatchObject({ name: 'accessories', kind: 'belongsToMany', deferrable: true });
    expect(schema.view.toolbarButtons).toEqual(['link', 'unlink']);
    expect(schema.view.list.columns.map((c: { key: string }) => c.key)).toEqual(['name', 'sku']);
    expect(schema.pivotForm).toEqual([
      { name: 'quantity', type: 'number', label: 'Quantity', required: true, default: 1, min: 1, max: 99, step: 1 },
    ]);
  });

  it('links with a pivot quantity, shows and edits it, unlinks', async () => {
    const desk = await product('Desk');
    const [lamp, arm, pad] = [await product('Lamp'), await product('Arm'), await product('Pad')];
    const linked = await su.post(`${rel(desk)}/link`, { ids: [lamp], pivot: { quantity: 3 } });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body.data).toEqual({ linked: 1 });
    // Several at once, without pivot values: the column's default.
    expect((await su.post(`${rel(desk)}/link`, { ids: [arm, pad] })).body.data).toEqual({ linked: 2 });
    expect(await pivots(desk)).toEqual([
      { accessory_id: lamp, quantity: 3 },
      { accessory_id: arm, quantity: 1 },
      { accessory_id: pad, quantity: 1 },
    ]);
    const list = await su.get(rel(desk));
    expect(list.status).toBe(200);
    expect(ids(list)).toEqual([lamp, arm, pad]);
    expect(Object.keys(list.body.data[0]).sort()).toEqual(['id', 'name', 'sku']);
    expect(list.body.meta.total).toBe(3);

    expect((await su.get(`${rel(desk)}/pivot/${lamp}`)).body).toEqual({ data: { quantity: 3 }, meta: {} });
    for (const quantity of [1, 99, 42]) {
      const res = await su.put(`${rel(desk)}/pivot/${lamp}`, { quantity });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toEqual({ quantity });
    }
    const other = await product('Other');
    const before = await snapshot(t, TABLES);
    for (const quantity of [0, 100, -1, 1.5, 'abc', '', null, [3], { n: 3 }]) {
      expect422(await su.put(`${rel(desk)}/pivot/${lamp}`, { quantity }), ['quantity']);
    }
    expect422(await su.put(`${rel(desk)}/pivot/${lamp}`, { quantity: 2, price: 3 }), ['price']);
    expect422(await su.put(`${rel(desk)}/pivot/${lamp}`, { product_id: arm }), ['product_id']);
    expect422(await su.put(`${rel(desk)}/pivot/${lamp}`, [1]), ['body']);
    expect422(await su.post(`${rel(desk)}/link`, { ids: [lamp], pivot: { quantity: 100 } }), ['pivot.quantity']);
    expect422(await su.post(`${rel(desk)}/link`, { ids: [lamp], pivot: { colour: 'red' } }), ['pivot.colour']);
    // A pivot applies to one id only.
    expect422(await su.post(`${rel(desk)}/link`, { ids: [other, pad], pivot: { quantity: 2 } }), ['pivot']);
    expect(await snapshot(t, TABLES)).toEqual(before);
    // The pivot of a product that is not an accessory of this one is not there.
    for (const id of [other, desk, 999999]) {
      expect((await su.get(`${rel(desk)}/pivot/${id}`)).status).toBe(404);
      expect((await su.put(`${rel(desk)}/pivot/${id}`, { quantity: 2 })).status).toBe(404);
    }

    const unlinked = await su.post(`${rel(desk)}/unlink`, { ids: [lamp, pad] });
    expect(unlinked.body.data).toEqual({ removed: 2 });
    expect(await pivots(desk)).toEqual([{ accessory_id: arm, quantity: 1 }]);
    // The products themselves stay.
    expect(await t.sql('select count(*)::int as n from test_press_products where id in (?, ?)', [lamp, pad])).toEqual([{ n: 2 }]);
    expect((await su.post(`${rel(desk)}/unlink`, { ids: [lamp] })).status).toBe(404);
    expect((await su.post(`${rel(desk)}/unlink`, { ids: [arm, lamp] })).status).toBe(404);
    expect(await pivots(desk)).toEqual([{ accessory_id: arm, quantity: 1 }]);
  });

  it('candidates: not linked yet, never the product itself; an accessory may serve several products', async () => {
    const desk = await product('Desk');
    const chair = await product('Chair');
    const lamp = await product('Lamp');
    expect((await su.post(`${rel(desk)}/link`, { ids: [lamp] })).status).toBe(200);
    const all = async (owner: number) => {
      const found: number[] = [];
      for (let page = 1; ; page += 1) {
        const res = await su.get(`${rel(owner)}/candidates`, { page: String(page) });
        expect(res.status).toBe(200);
        found.push(...ids(res));
        if (page >= res.body.meta.last_page) return found;
      }
    };
    const forDesk = await all(desk);
    expect(forDesk).toContain(chair);
    expect(forDesk).not.toContain(desk);
    expect(forDesk).not.toContain(lamp);
    expect(await all(chair)).toEqual(expect.arrayContaining([desk, lamp]));
    expect(await all(chair)).not.toContain(chair);
    // Itself: refused on the field, nothing linked.
    expect422(await su.post(`${rel(desk)}/link`, { ids: [desk] }), ['accessories']);
    expect422(await su.post(`${rel(desk)}/link`, { ids: [chair, desk] }), ['accessories']);
    expect422(await su.post(`${rel(desk)}/link`, { ids: [999999] }), ['accessories']);
    expect(await pivots(desk)).toEqual([{ accessory_id: lamp, quantity: 1 }]);
    // The lamp serves the chair too.
    expect((await su.post(`${rel(chair)}/link`, { ids: [lamp], pivot: { quantity: 2 } })).status).toBe(200);
    expect(await pivots(chair)).toEqual([{ accessory_id: lamp, quantity: 2 }]);
    expect(await pivots(desk)).toEqual([{ accessory_id: lamp, quantity: 1 }]);
  });

  it('the toolbar links and unlinks only: create, update, show and delete of records are 404', async () => {
    const desk = await product('Desk');
    const lamp = await product('Lamp');
    expect((await su.post(`${rel(desk)}/link`, { ids: [lamp] })).status).toBe(200);
    const before = await snapshot(t, TABLES);
    expect((await su.post(`${rel(desk)}/records`, {})).status).toBe(404);
    expect((await su.put(`${rel(desk)}/records/${lamp}`, {})).status).toBe(404);
    expect((await su.get(`${rel(desk)}/records/${lamp}`)).status).toBe(404);
    expect((await su.post(`${rel(desk)}/delete`, { ids: [lamp] })).status).toBe(404);
    // Before the first save too.
    expect((await su.post(`${rel(0)}/records`, {}).set('X-Session-Key', 'no-create')).status).toBe(404);
    expect((await su.post(`${rel(0)}/delete`, { ids: [lamp] }).set('X-Session-Key', 'no-create')).status).toBe(404);
    expect(await snapshot(t, TABLES)).toEqual(before);
  });

  it('a route the toolbar does not declare is 404 whatever the body', async () => {
    const desk = await product('Desk');
    const lamp = await product('Lamp');
    expect((await su.post(`${rel(desk)}/link`, { ids: [lamp] })).status).toBe(200);
    const before = await snapshot(t, TABLES);
    expect((await su.post(`${rel(desk)}/records`, { name: 'Made here', sku: 'MADE-HERE' })).status).toBe(404);
    expect((await su.put(`${rel(desk)}/records/${lamp}`, { name: 'Renamed' })).status).toBe(404);
    expect(await snapshot(t, TABLES)).toEqual(before);
  });

  it('before the first save: a link with its quantity held under the key, written by the create save', async () => {
    const key = `acc-${Math.random().toString(36).slice(2)}`;
    const [lamp, arm, pad] = [await product('Lamp'), await product('Arm'), await product('Pad')];
    const linked = await su.post(`${rel(0)}/link`, { ids: [lamp], pivot: { quantity: 5 } }).set('X-Session-Key', key);
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect((await su.post(`${rel(0)}/link`, { ids: [arm, pad] }).set('X-Session-Key', key)).status).toBe(200);
    expect((await su.post(`${rel(0)}/unlink`, { ids: [pad] }).set('X-Session-Key', key)).status).toBe(200);
    // Nothing written yet; the list and the pivot under the key show the pending state.
    const stored = await t.sql('select count(*)::int as n from test_press_product_accessories where accessory_id in (?, ?, ?)', [
      lamp,
      arm,
      pad,
    ]);
    expect(stored).toEqual([{ n: 0 }]);
    expect(ids(await su.get(rel(0)).set('X-Session-Key', key))).toEqual([lamp, arm]);
    expect((await su.get(`${rel(0)}/pivot/${lamp}`).set('X-Session-Key', key)).body.data).toEqual({ quantity: 5 });
    // Not linked: the default shows until the save.
    expect((await su.get(`${rel(0)}/pivot/${arm}`).set('X-Session-Key', key)).body.data).toEqual({ quantity: 1 });
    const edited = await su.put(`${rel(0)}/pivot/${arm}`, { quantity: 7 }).set('X-Session-Key', key);
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toEqual({ quantity: 7 });
    expect422(await su.put(`${rel(0)}/pivot/${arm}`, { quantity: 0 }).set('X-Session-Key', key), ['quantity']);
    expect((await su.get(`${rel(0)}/pivot/${pad}`).set('X-Session-Key', key)).status).toBe(404);

    const saved = await su.post(PRODUCTS, { name: 'Desk with things', sku: `DESK-${key}` }).set('X-Session-Key', key);
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const desk = saved.body.data.id as number;
    expect(await pivots(desk)).toEqual([
      { accessory_id: lamp, quantity: 5 },
      { accessory_id: arm, quantity: 7 },
    ]);
    expect(ids(await su.get(rel(desk)))).toEqual([lamp, arm]);
  });

  it('on a saved product: pivot edits and unlinks under the key wait for the update save', async () => {
    const desk = await product('Desk');
    const [lamp, arm] = [await product('Lamp'), await product('Arm')];
    expect((await su.post(`${rel(desk)}/link`, { ids: [lamp, arm] })).status).toBe(200);
    const key = `acc-${Math.random().toString(36).slice(2)}`;
    expect((await su.put(`${rel(desk)}/pivot/${lamp}`, { quantity: 9 }).set('X-Session-Key', key)).body.data).toEqual({ quantity: 9 });
    expect((await su.post(`${rel(desk)}/unlink`, { ids: [arm] }).set('X-Session-Key', key)).status).toBe(200);
    expect(await pivots(desk)).toEqual([
      { accessory_id: lamp, quantity: 1 },
      { accessory_id: arm, quantity: 1 },
    ]);
    expect((await su.get(`${rel(desk)}/pivot/${lamp}`)).body.data).toEqual({ quantity: 1 });
    expect((await su.put(`${PRODUCTS}/${desk}`, { name: 'Desk saved' }).set('X-Session-Key', key)).status).toBe(200);
    expect(await pivots(desk)).toEqual([{ accessory_id: lamp, quantity: 9 }]);
  });

  it('is gated by the products permission', async () => {
    const desk = await product('Desk');
    const lamp = await product('Lamp');
    const writer = await signIn(t, { permissions: { 'test.press.posts': 1 } });
    const before = await snapshot(t, TABLES);
    for (const res of [
      await writer.get(`${PRODUCTS}/schema/relation/accessories`),
      await writer.get(rel(desk)),
      await writer.get(`${rel(desk)}/candidates`),
      await writer.post(`${rel(desk)}/link`, { ids: [lamp] }),
      await writer.post(`${rel(desk)}/unlink`, { ids: [lamp] }),
      await writer.get(`${rel(desk)}/pivot/${lamp}`),
      await writer.put(`${rel(desk)}/pivot/${lamp}`, { quantity: 2 }),
      await writer.post(`${rel(0)}/link`, { ids: [lamp] }).set('X-Session-Key', 'writer-form'),
    ]) {
      expect(res.status).toBe(403);
    }
    expect(await snapshot(t, TABLES)).toEqual(before);
    const merchant = await signIn(t, { permissions: { 'test.press.products': 1 } });
    expect((await merchant.post(`${rel(desk)}/link`, { ids: [lamp], pivot: { quantity: 4 } })).status).toBe(200);
    expect(await pivots(desk)).toEqual([{ accessory_id: lamp, quantity: 4 }]);
  });
});
