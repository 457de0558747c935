import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { CATEGORIES, PRODUCTS, startBlogAdmin } from '../support/blog.ts';

/**
 * The journal's and the catalog's reorders, end to end (docs/reorder.md): categories a tree three
 * levels deep, products a flat list, each behind its own permission. Every rule of a reorder is
 * the core's, tested on its fixtures (`packages/admin-core/test/reorder/`).
 */
describe('the reorders of the journal and the catalog', () => {
  let t: TestAdmin;
  let su: Client;

  beforeAll(async () => {
    t = await startBlogAdmin();
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  const insert = async (sql: string) => (await t.sql<{ id: number }>(sql)).map((row) => Number(row.id));

  it('categories: a tree with its localized title; a fourth level is refused, the order saved', async () => {
    const [news, world, europe, paris] = await insert(
      `insert into journal_categories (name, slug, sort_order) values ('News', 'e2e-news', 0), ('World', 'e2e-world', 1),
       ('Europe', 'e2e-europe', 2), ('Paris', 'e2e-paris', 3) returning id`,
    );
    const read = await su.get(`${CATEGORIES}/reorder`);
    expect(read.status).toBe(200);
    expect(read.body.meta).toEqual({ total: 4, tree: true, max_depth: 3, title: 'Reorder categories' });
    expect((await su.locale('de').get(`${CATEGORIES}/reorder`)).body.meta.title).toBe('Kategorien anordnen');
    const tooDeep = [
      { id: news, parent_id: null },
      { id: world, parent_id: news },
      { id: europe, parent_id: world },
      { id: paris, parent_id: europe },
    ];
    expect((await su.post(`${CATEGORIES}/reorder`, { nodes: tooDeep })).status).toBe(422);
    const nodes = [...tooDeep.slice(0, 3), { id: paris, parent_id: world }];
    const saved = await su.post(`${CATEGORIES}/reorder`, { nodes });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await t.sql('select id, parent_id, sort_order from journal_categories order by sort_order')).toEqual(
      nodes.map((node, position) => ({ id: node.id, parent_id: node.parent_id, sort_order: position })),
    );
  });

  it('products: a flat list with its title; a parent is refused', async () => {
    const ids = await insert(
      `insert into acme_catalog_products (name, sku, sort_order) values ('A', 'E2E-A', 0), ('B', 'E2E-B', 1) returning id`,
    );
    const read = await su.get(`${PRODUCTS}/reorder`);
    expect(read.body.meta).toEqual({ total: 2, tree: false, max_depth: 0, title: 'Reorder products' });
    expect((await su.post(`${PRODUCTS}/reorder`, { nodes: [{ id: ids[1] }, { id: ids[0], parent_id: ids[1] }] })).status).toBe(422);
    const saved = await su.post(`${PRODUCTS}/reorder`, { nodes: [{ id: ids[1] }, { id: ids[0] }] });
    expect(saved.body.data.map((node: { id: number }) => node.id)).toEqual([ids[1], ids[0]]);
  });

  it('each reorder needs its controller permission', async () => {
    const writer = await signIn(t, { permissions: { 'cms.journal.access_categories': 1 } });
    expect((await writer.get(`${CATEGORIES}/reorder`)).status).toBe(200);
    expect((await writer.get(`${PRODUCTS}/reorder`)).status).toBe(403);
    const merchant = await signIn(t, { permissions: { 'acme.catalog.manage_products': 1 } });
    expect((await merchant.get(`${PRODUCTS}/reorder`)).status).toBe(200);
    expect((await merchant.get(`${CATEGORIES}/reorder`)).status).toBe(403);
  });
});
