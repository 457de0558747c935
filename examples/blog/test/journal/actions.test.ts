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
    expect((await publisher.get(`${POSTS}/${draft}`)).body.meta.actions).toEqual([{ name: 'publish', label: 'Publish' }, archive]);
    expect((await editor.get(`${POSTS}/${draft}`)).body.meta.actions).toEqual([archive]);
    expect((await publisher.get(`${POSTS}/${archived}`)).body.meta.actions).toEqual([{ name: 'publish', label: 'Publish' }]);
    expect((await editor.get(`${POSTS}/${archived}`)).body.meta.actions).toEqual([]);
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
