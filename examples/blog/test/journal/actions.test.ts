import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { startBlogAdmin } from '../support/blog.ts';
import { expectError } from '../../../../test/support/auth.ts';
import { signIn, snapshot, type Client } from '../../../../test/support/client.ts';

const POSTS = 'cms/journal/posts';
const ACCESS = 'cms.journal.access_posts';
const PUBLISH = 'cms.journal.publish_posts';

// The search gate (reindex, indexing on save) is tested against a stub engine in search-gate.test.ts.
describe('journal post actions', () => {
  let t: TestAdmin;
  let editor: Client; // may manage posts, not publish them
  let publisher: Client;

  beforeAll(async () => {
    t = await startBlogAdmin();
    editor = await signIn(t, { permissions: { [ACCESS]: 1 } });
    publisher = await signIn(t, { permissions: { [ACCESS]: 1, [PUBLISH]: 1 } });
  });
  afterAll(() => t.close());

  const post = async (status: string, publishedAt: string | null = null) => {
    const rows = await t.sql<{ id: number }>(
      'insert into journal_posts (title, slug, status, published_at) values (?, ?, ?, ?) returning id',
      [`P ${status}`, `p-${Math.random().toString(36).slice(2)}`, status, publishedAt],
    );
    return Number(rows[0]!.id);
  };
  const row = async (id: number) =>
    (await t.sql<{ status: string; published_at: Date | null }>('select status, published_at from journal_posts where id = ?', [id]))[0]!;
  const tables = ['journal_posts'];

  it('publish: sets the status and published_at now when empty; keeps a date already set', async () => {
    const draft = await post('draft');
    const before = Date.now();
    const res = await publisher.post(`${POSTS}/${draft}/actions/publish`);
    expect(res.body).toEqual({ data: { fill: {}, message: 'The post “P draft” is published.' }, meta: {} });
    const published = await row(draft);
    expect(published.status).toBe('published');
    expect(new Date(published.published_at!).getTime()).toBeGreaterThanOrEqual(before - 1000);
    const dated = await post('archived', '2020-05-01T10:00:00Z');
    expect((await publisher.locale('de').post(`${POSTS}/${dated}/actions/publish`)).body.data.message).toBe(
      'Der Beitrag „P archived“ ist veröffentlicht.',
    );
    expect(new Date((await row(dated)).published_at!).toISOString()).toBe('2020-05-01T10:00:00.000Z');
  });

  it('publish needs publish_posts (403) and does not apply to a published post (409)', async () => {
    const draft = await post('draft');
    const published = await post('published', '2024-01-01T00:00:00Z');
    const before = await snapshot(t, tables);
    expectError(await editor.post(`${POSTS}/${draft}/actions/publish`), 403, 'forbidden');
    expectError(await publisher.post(`${POSTS}/${published}/actions/publish`), 409, 'action_not_applicable');
    expect(await snapshot(t, tables)).toEqual(before);
  });

  it('archive: applies to any post not archived, for an editor too', async () => {
    const draft = await post('draft');
    expect((await editor.post(`${POSTS}/${draft}/actions/archive`)).body.data.message).toBe('The post “P draft” is archived.');
    expect((await row(draft)).status).toBe('archived');
    expectError(await editor.post(`${POSTS}/${draft}/actions/archive`), 409, 'action_not_applicable');
  });

  it('meta.actions: permitted and applicable, archive with danger and confirm', async () => {
    const draft = await post('draft');
    const archived = await post('archived');
    const archive = {
      name: 'archive',
      label: 'Archive',
      confirm: 'Archive this post? It stays in the list but is no longer public.',
      danger: true,
    };
    // The built-in `duplicate` comes after the declared ones (docs/actions.md, "Duplicate").
    const duplicate = { name: 'duplicate', label: 'Duplicate' };
    expect((await publisher.get(`${POSTS}/${draft}`)).body.meta.actions).toEqual([
      { name: 'publish', label: 'Publish' },
      archive,
      duplicate,
    ]);
    expect((await editor.get(`${POSTS}/${draft}`)).body.meta.actions).toEqual([archive, duplicate]);
    expect((await publisher.get(`${POSTS}/${archived}`)).body.meta.actions).toEqual([{ name: 'publish', label: 'Publish' }, duplicate]);
    expect((await editor.get(`${POSTS}/${archived}`)).body.meta.actions).toEqual([duplicate]);
  });

  it('duplicate: an editor copies a published post as a draft under a new slug, with its categories', async () => {
    const published = await post('published', '2024-01-01T00:00:00Z');
    const [category] = await t.sql<{ id: number }>(`insert into journal_categories (name, slug) values ('Dup', ?) returning id`, [
      `dup-${published}`,
    ]);
    const pivot = await t.sql<{ table_name: string }>(
      `select table_name from information_schema.tables where table_name like 'journal_post%categor%'`,
    );
    await t.sql(`insert into ${pivot[0]!.table_name} (post_id, category_id) values (?, ?)`, [published, category!.id]);
    await t.sql('update journal_posts set tags = ? where id = ?', [JSON.stringify(['harbour', 'night']), published]);
    const res = await editor.post(`${POSTS}/${published}/actions/duplicate`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const copyId = res.body.data.data.id as number;
    expect(res.body.data).toEqual({ fill: {}, message: 'Duplicated.', data: { id: copyId, redirect: `${POSTS}/update/${copyId}` } });
    const [original] = await t.sql<{ title: string; slug: string }>('select title, slug from journal_posts where id = ?', [published]);
    const [copy] = await t.sql<{ title: string; slug: string; status: string; published_at: unknown }>(
      'select title, slug, status, published_at from journal_posts where id = ?',
      [copyId],
    );
    expect(copy).toEqual({ title: `${original!.title} (copy)`, slug: `${original!.slug}-copy`, status: 'draft', published_at: null });
    // `tags` (a JSON column with `onCreate`) is copied; only timestamps are the entity's own.
    const tags = await t.sql<{ tags: unknown }>('select tags from journal_posts where id in (?, ?) order by id', [published, copyId]);
    expect(tags[1]!.tags).toEqual(tags[0]!.tags);
    const links = await t.sql(`select category_id from ${pivot[0]!.table_name} where post_id = ?`, [copyId]);
    expect(links).toEqual([{ category_id: category!.id }]);
    // The copy's slug is taken now: a second copy is a 422 on the slug, nothing written.
    const before = await snapshot(t, tables);
    const again = await editor.post(`${POSTS}/${published}/actions/duplicate`);
    expectError(again, 422, 'validation_failed');
    expect(Object.keys(again.body.error.details)).toEqual(['slug']);
    expect(await snapshot(t, tables)).toEqual(before);
  });

  it('bulk publish: gated by publish_posts, counts the posts it published', async () => {
    const ids = [await post('draft'), await post('archived'), await post('published', '2023-01-01T00:00:00Z')];
    const before = await snapshot(t, tables);
    expectError(await editor.post(`${POSTS}/bulk/publish`, { ids }), 403, 'forbidden');
    expect(await snapshot(t, tables)).toEqual(before);
    const res = await publisher.post(`${POSTS}/bulk/publish`, { ids });
    expect(res.body.data).toEqual({ affected: 2, message: '2 posts were published.' });
    expect((await Promise.all(ids.map(row))).map((r) => r.status)).toEqual(['published', 'published', 'published']);
    expect(new Date((await row(ids[2]!)).published_at!).toISOString()).toBe('2023-01-01T00:00:00.000Z');
  });

  it('the list schema offers bulk publish to publishers only, and the reindex toolbar action', async () => {
    const editorSchema = (await editor.get(`${POSTS}/schema/list`)).body.data;
    expect(editorSchema.bulkActions).toEqual([]);
    expect(editorSchema.toolbarActions).toEqual([{ name: 'reindex', label: 'Rebuild search index' }]);
    expect(editorSchema.toolbarButtons).toEqual(['create', 'delete', 'reindex']);
    expect((await publisher.locale('de').get(`${POSTS}/schema/list`)).body.data.bulkActions).toEqual([
      { name: 'publish', label: 'Veröffentlichen', confirm: 'Die ausgewählten Beiträge veröffentlichen?' },
    ]);
  });
});
