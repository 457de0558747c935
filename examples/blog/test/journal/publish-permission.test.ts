import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { expectError } from '../../../../test/support/auth.ts';
import { signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { POSTS, startBlogAdmin } from '../support/blog.ts';

/*
 * Issue 9, point 5: `cms.journal.publish_posts` gated the `publish` action, but a plain save with
 * `status: "published"` or a `published_at` did the same without it. The posts form declares
 * field-level write permissions (docs/controllers.md, "Field-level write permissions").
 */
const ACCESS = 'cms.journal.access_posts';
const PUBLISH = 'cms.journal.publish_posts';
const TABLES = ['journal_posts'];

describe('publishing a post through a plain save needs cms.journal.publish_posts', () => {
  let t: TestAdmin;
  let editor: Client;
  let publisher: Client;
  let counter = 0;

  beforeAll(async () => {
    t = await startBlogAdmin();
    editor = await signIn(t, { permissions: { [ACCESS]: 1 } });
    publisher = await signIn(t, { permissions: { [ACCESS]: 1, [PUBLISH]: 1 } });
  });
  afterAll(() => t.close());

  const fresh = () => {
    counter += 1;
    return { title: `Post ${counter}`, slug: `publish-${counter}` };
  };
  /** A post written by SQL (no permission involved): its id. */
  async function seed(status: string, publishedAt: string | null = null): Promise<number> {
    const { slug, title } = fresh();
    const [row] = await t.sql<{ id: number }>(
      'insert into journal_posts (title, slug, status, published_at) values (?, ?, ?, ?) returning id',
      [title, slug, status, publishedAt],
    );
    return Number(row!.id);
  }
  /** A 403 `forbidden` whose details name exactly `fields`, with localized messages; nothing written. */
  async function refused(send: () => PromiseLike<{ status: number; body: any }>, fields: string[]) {
    const before = await snapshot(t, TABLES);
    const res = (await send()) as Parameters<typeof expectError>[0];
    expectError(res, 403, 'forbidden');
    expect(Object.keys(res.body.error.details).sort()).toEqual([...fields].sort());
    for (const messages of Object.values(res.body.error.details as Record<string, string[]>)) {
      expect(messages.length).toBe(1);
      expect(messages[0]).not.toMatch(/::/);
    }
    expect(await snapshot(t, TABLES)).toEqual(before);
    return res.body.error.details as Record<string, string[]>;
  }

  it('refuses a create with status "published" without the permission, naming the field', async () => {
    const details = await refused(() => editor.post(POSTS, { ...fresh(), status: 'published' }), ['status']);
    expect(details.status).toEqual(['You may not set this field to “published”.']);
  });

  it('refuses a create with a published_at without the permission', async () => {
    const details = await refused(() => editor.post(POSTS, { ...fresh(), published_at: '2024-05-01T12:00:00Z' }), ['published_at']);
    expect(details.published_at).toEqual(['You may not set or change this field.']);
    // Both at once: both named, in the request's locale.
    const de = await refused(
      () => editor.locale('de').post(POSTS, { ...fresh(), status: 'published', published_at: '2024-05-01T12:00:00Z' }),
      ['published_at', 'status'],
    );
    expect(de.published_at).toEqual(['Sie dürfen dieses Feld nicht setzen oder ändern.']);
  });

  it('refuses an update to "published" or of published_at without the permission; nothing is written', async () => {
    const id = await seed('draft');
    await refused(() => editor.put(`${POSTS}/${id}`, { status: 'published' }), ['status']);
    await refused(() => editor.put(`${POSTS}/${id}`, { title: 'Renamed', published_at: '2024-05-01T12:00:00Z' }), ['published_at']);
    const dated = await seed('archived', '2024-01-01T00:00:00Z');
    await refused(() => editor.put(`${POSTS}/${dated}`, { published_at: null }), ['published_at']);
    await refused(() => editor.put(`${POSTS}/${dated}`, { published_at: '2024-01-02T00:00:00Z' }), ['published_at']);
  });

  it('a 403 on a guarded field wins over a 422 on another field', async () => {
    const id = await seed('draft');
    await refused(() => editor.put(`${POSTS}/${id}`, { title: '', status: 'published' }), ['status']);
  });

  it('lets the editor save what does not publish: a draft, an archive, an unchanged value', async () => {
    const created = await editor.post(POSTS, { ...fresh(), status: 'draft', published_at: null });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ status: 'draft', published_at: null });
    const id = created.body.data.id as number;
    expect((await editor.put(`${POSTS}/${id}`, { status: 'archived' })).body.data.status).toBe('archived');
    // A published post keeps its status and date when the editor sends them back unchanged.
    const published = await seed('published', '2024-01-01T00:00:00Z');
    const shown = (await editor.get(`${POSTS}/${published}`)).body.data;
    const res = await editor.put(`${POSTS}/${published}`, { title: 'Edited', status: shown.status, published_at: shown.published_at });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'Edited', status: 'published', published_at: '2024-01-01T00:00:00.000Z' });
    // The same instant in another offset is the same value.
    expect((await editor.put(`${POSTS}/${published}`, { published_at: '2024-01-01T01:00:00+01:00' })).status).toBe(200);
    // Taking a post out of `published` is not publishing it.
    expect((await editor.put(`${POSTS}/${published}`, { status: 'draft' })).body.data.status).toBe('draft');
  });

  it('lets an admin with the permission publish by a save, on create and on update', async () => {
    const created = await publisher.post(POSTS, { ...fresh(), status: 'published', published_at: '2024-05-01T12:00:00Z' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ status: 'published', published_at: '2024-05-01T12:00:00.000Z' });
    const id = await seed('draft');
    const res = await publisher.put(`${POSTS}/${id}`, { status: 'published', published_at: '2024-06-01T00:00:00Z' });
    expect(res.body.data).toMatchObject({ status: 'published', published_at: '2024-06-01T00:00:00.000Z' });
  });

  it('the form schema marks status and published_at read-only for an admin without the permission', async () => {
    const fieldsOf = async (client: Client) =>
      Object.fromEntries(
        ((await client.get(`${POSTS}/schema/form`)).body.data.fields as Array<{ name: string; readOnly?: boolean }>).map((f) => [
          f.name,
          f.readOnly,
        ]),
      );
    const forEditor = await fieldsOf(editor);
    expect(forEditor).toMatchObject({ status: true, published_at: true, title: undefined });
    const forPublisher = await fieldsOf(publisher);
    expect(forPublisher).toMatchObject({ status: undefined, published_at: undefined });
  });
});
