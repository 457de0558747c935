import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, type TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { POSTS, PRODUCTS, startBlogAdmin } from '../support/blog.ts';

/**
 * The journal's and the catalog's relation managers, end to end (docs/relations.md): a post's
 * comments (a hasMany, managed before the first save too) and a product's accessories (a
 * belongsToMany with a quantity). Every rule of a relation route is the core's, tested on its
 * fixtures (`packages/admin-core/test/relations/`).
 */
describe('the relations of the journal and the catalog', () => {
  let t: TestAdmin;
  let su: Client;

  beforeAll(async () => {
    t = await startBlogAdmin();
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  it('comments: the schema in en and de; a comment written before the save belongs to the saved post', async () => {
    const schema = await su.get(`${POSTS}/schema/relation/comments`);
    expect(schema.body.data).toMatchObject({ name: 'comments', label: 'Comments', kind: 'hasMany', deferrable: true });
    expect((await su.locale('de').get(`${POSTS}/schema/relation/comments`)).body.data.label).toBe('Kommentare');
    const key = `e2e-${Date.now().toString(36)}`;
    const child = await su.post(`${POSTS}/0/relations/comments/records`, { author_name: 'Ann', body: 'First' }).set('X-Session-Key', key);
    expect(child.status, JSON.stringify(child.body)).toBe(201);
    const saved = await su.post(POSTS, { title: 'With a comment', slug: key }).set('X-Session-Key', key);
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(await t.sql('select post_id from journal_comments where id = ?', [child.body.data.id])).toEqual([
      { post_id: saved.body.data.id },
    ]);
  });

  it("comments: a comment's photo uploaded in its form before the comment exists is attached by the comment's save", async () => {
    const post = await su.post(POSTS, { title: 'With a photo', slug: `photo-${Date.now().toString(36)}` });
    const childKey = `child-${Date.now().toString(36)}-key`;
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 'base64');
    const uploaded = await t.http
      .post(`${API}/${POSTS}/${post.body.data.id}/relations/comments/records/0/files/photo`)
      .set('Authorization', `Bearer ${su.token}`)
      .set('X-Child-Session-Key', childKey)
      .attach('file_data', png, 'face.png');
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    expect(uploaded.body.data.pending).toBe(true);
    const child = await su
      .post(`${POSTS}/${post.body.data.id}/relations/comments/records`, { author_name: 'Flo', body: 'With a photo' })
      .set('X-Child-Session-Key', childKey);
    expect(child.status, JSON.stringify(child.body)).toBe(201);
    expect(await t.sql("select attachment_id from cms_files where field = 'photo' and id = ?", [uploaded.body.data.id])).toEqual([
      { attachment_id: child.body.data.id },
    ]);
  });

  it('accessories: linked with a quantity, edited through the pivot form', async () => {
    const product = async (sku: string) => (await su.post(PRODUCTS, { name: sku, sku })).body.data.id as number;
    const [desk, lamp] = [await product('E2E-DESK'), await product('E2E-LAMP')];
    const schema = await su.get(`${PRODUCTS}/schema/relation/accessories`);
    expect(schema.body.data.pivotForm).toEqual([
      { name: 'quantity', type: 'number', label: 'Quantity', required: true, default: 1, min: 1, max: 99, step: 1 },
    ]);
    const rel = `${PRODUCTS}/${desk}/relations/accessories`;
    expect((await su.post(`${rel}/link`, { ids: [lamp], pivot: { quantity: 3 } })).body.data).toEqual({ linked: 1 });
    expect((await su.put(`${rel}/pivot/${lamp}`, { quantity: 5 })).body.data).toEqual({ quantity: 5 });
    expect(await t.sql('select accessory_id, quantity from acme_catalog_product_accessories where product_id = ?', [desk])).toEqual([
      { accessory_id: lamp, quantity: 5 },
    ]);
  });
});
