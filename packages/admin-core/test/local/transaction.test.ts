import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeededAdmin, TestAdmin } from '../../../../test/support/app.ts';
import { POSTS, PRODUCTS } from '../fixtures/press.ts';
import { POSTS_PERMISSION } from '../fixtures/press-posts.ts';
import { auditOf, blobsIn, png, refusal, startLocalAdmin } from './support.ts';

/*
 * `local.transaction` (docs/local-api.md, "Transactions"): every operation called on `tx` joins
 * one database transaction; when the work throws, all of it rolls back together, the blobs its
 * uploads stored are deleted and no after-commit work runs. A refused operation inside undoes
 * only its own writes (a savepoint) when the work catches it.
 */

let t: TestAdmin;
let editor: SeededAdmin;
const count = async (table: string) => Number((await t.sql<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n);

beforeAll(async () => {
  t = await startLocalAdmin();
  editor = await t.createAdmin({ permissions: { [POSTS_PERMISSION]: 1 } });
});
afterAll(() => t?.close());

describe('local.transaction', () => {
  it('rolls back together when the last operation throws: no row, no audit row, no file row, no blob', async () => {
    const failure = await t.core.local
      .transaction(async (tx) => {
        const post = await tx.create(POSTS, { data: { title: 'One', slug: 'one' } }, { as: editor.id });
        const id = post.data.id as number;
        await tx.files.upload(POSTS, { id, field: 'cover_image', file: { buffer: await png(), name: 'cover.png' } }, { as: editor.id });
        await tx.files.upload(
          POSTS,
          { id, field: 'gallery', file: { stream: Readable.from([await png({ r: 1, g: 2, b: 3 })]), name: 'g.png' } },
          { as: editor.id },
        );
        await tx.relations.create(
          POSTS,
          { parentId: id, relation: 'comments', data: { author_name: 'Ann', body: 'Hi' } },
          { as: editor.id },
        );
        await tx.create(PRODUCTS, { data: { name: 'Lamp', sku: 'L-1' } }, { as: 'system' });
        // Inside, each operation sees the earlier ones.
        expect((await tx.files.list(POSTS, { id, field: 'cover_image' }, { as: editor.id })).length).toBe(1);
        expect((await tx.list(POSTS, {}, { as: editor.id })).meta.total).toBe(1);
        // The last one is refused: 422, and everything goes.
        await tx.create(POSTS, { data: { slug: 'no-title' } }, { as: editor.id });
      })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 422 });
    for (const table of ['test_press_posts', 'test_press_comments', 'test_press_products', 'cms_files'])
      expect([table, await count(table)]).toEqual([table, 0]);
    // The only audit rows are the test admins' own (written by the admins form at set-up).
    expect(await t.sql("select target from cms_audit where target <> 'cms/backend/admins'")).toEqual([]);
    expect(await blobsIn(t.storageRoot)).toEqual([]);
  });

  it('commits together; a refusal caught inside undoes only its own writes', async () => {
    const id = await t.core.local.transaction(async (tx) => {
      const post = await tx.create(POSTS, { data: { title: 'Two', slug: 'two' } }, { as: editor.id });
      const postId = post.data.id as number;
      await tx.files.upload(
        POSTS,
        { id: postId, field: 'cover_image', file: { buffer: await png(), name: 'cover.png' } },
        { as: editor.id },
      );
      // Refused (a duplicate of nothing: no title) and caught: the work goes on.
      expect(await refusal(tx.update(POSTS, postId, { data: { title: '' } }, { as: editor.id }))).toMatchObject({ status: 422 });
      await tx.update(POSTS, postId, { data: { excerpt: 'kept' } }, { as: editor.id });
      return postId;
    });
    expect(await t.sql('select title, excerpt from test_press_posts where id = ?', [id])).toEqual([{ title: 'Two', excerpt: 'kept' }]);
    expect((await auditOf(t, POSTS)).map((row) => row.action)).toEqual(['create', 'file', 'update']);
    expect((await blobsIn(t.storageRoot)).length).toBeGreaterThan(0);
  });

  it('a replaced file is deleted after the commit only, and kept when the transaction rolls back', async () => {
    const [post] = await t.sql<{ id: number }>("select id from test_press_posts where slug = 'two'");
    const id = Number(post!.id);
    const before = await blobsIn(t.storageRoot);
    // Replaced (attachOne) then rolled back: the old cover and its blob stay.
    await t.core.local
      .transaction(async (tx) => {
        await tx.files.upload(
          POSTS,
          { id, field: 'cover_image', file: { buffer: await png({ r: 9, g: 9, b: 9 }), name: 'new.png' } },
          { as: editor.id },
        );
        throw new Error('changed my mind');
      })
      .catch(() => undefined);
    expect((await blobsIn(t.storageRoot)).sort()).toEqual([...before].sort());
    // Replaced and committed: the old blob goes after the commit.
    await t.core.local.transaction(async (tx) => {
      await tx.files.upload(
        POSTS,
        { id, field: 'cover_image', file: { buffer: await png({ r: 9, g: 9, b: 9 }), name: 'new.png' } },
        { as: editor.id },
      );
    });
    await expect.poll(async () => (await blobsIn(t.storageRoot)).some((name) => before.includes(name))).toBe(false);
    expect(await count('cms_files')).toBe(1);
  });

  it('reads of the admin and a refused caller inside a transaction roll it back as well', async () => {
    const outsider = await t.createAdmin();
    const before = await count('test_press_posts');
    const failure = await t.core.local
      .transaction(async (tx) => {
        await tx.create(POSTS, { data: { title: 'Three', slug: 'three' } }, { as: editor.id });
        await tx.create(POSTS, { data: { title: 'Four', slug: 'four' } }, { as: outsider.id });
      })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 403, code: 'forbidden' });
    expect(await count('test_press_posts')).toBe(before);
  });

  it("runs SQL inside the transaction: it sees the transaction's writes and rolls back with it", async () => {
    const { local } = t.core;
    await expect(
      local.transaction(async (tx) => {
        const post = (await tx.create(POSTS, { data: { title: 'Q', slug: 'q' } }, { as: 'system' })).data.id;
        expect(await tx.sql('select title from test_press_posts where id = ?', [post])).toEqual([{ title: 'Q' }]);
        await tx.sql('update test_press_posts set title = ? where id = ?', ['Q2', post]);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await t.sql("select id from test_press_posts where slug = 'q'")).toEqual([]);
  });
});
