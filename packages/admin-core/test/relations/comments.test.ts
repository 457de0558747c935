import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Test } from 'supertest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { POSTS, pressPlugin } from '../fixtures/press.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';

/**
 * The `comments` relation of `test/press/posts` end to end over HTTP (docs/relations.md): a
 * hasMany with a nullable key, so deferrable, managed on a saved post and before its first save.
 */
describe('test/press/posts: comments', () => {
  let t: TestAdmin;
  let su: Client;
  let counter = 0;

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [pressPlugin] });
    su = await signIn(t, { isSuperuser: true, login: 'chief' });
  });
  afterAll(() => t.close());

  const unique = (prefix: string) => `${prefix}-${(counter += 1)}-${Math.random().toString(36).slice(2, 7)}`;
  const rel = (post: number) => `${POSTS}/${post}/relations/comments`;
  const keyed = (request: Test, key: string | undefined) => (key === undefined ? request : request.set('X-Session-Key', key));

  async function newPost(client: Client = su): Promise<number> {
    const slug = unique('post');
    const res = await client.post(POSTS, { title: slug, slug });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as number;
  }
  /** A comment inserted directly: an orphan (`post` null) or a post's. */
  async function comment(post: number | null, author = unique('author'), body = 'Some words'): Promise<number> {
    const rows = await t.sql<{ id: number }>('insert into test_press_comments (post_id, author_name, body) values (?, ?, ?) returning id', [
      post,
      author,
      body,
    ]);
    return Number(rows[0]!.id);
  }
  /** Ids of a post's comments in the database, ascending. */
  const stored = async (post: number) =>
    (await t.sql<{ id: number }>('select id from test_press_comments where post_id = ? order by id', [post])).map((row) => Number(row.id));
  /** The post of a comment: its id, null for an orphan, `'gone'` when the comment is no more. */
  async function postOf(id: number): Promise<number | null | 'gone'> {
    const rows = await t.sql<{ post_id: number | null }>('select post_id from test_press_comments where id = ?', [id]);
    return rows.length === 0 ? 'gone' : rows[0]!.post_id;
  }
  /** Ids a relation list answers, every page of it, ascending. */
  async function listed(client: Client, path: string, key?: string): Promise<number[]> {
    const ids: number[] = [];
    for (let page = 1; ; page += 1) {
      const res = await keyed(client.get(path, { per_page: '20', page: String(page) }), key);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ids.push(...(res.body.data as Array<{ id: number }>).map((row) => row.id));
      if (page >= res.body.meta.last_page) break;
    }
    return ids.sort((a, b) => a - b);
  }
  const members = (post: number, key?: string, client = su) => listed(client, rel(post), key);
  const candidates = (post: number, key?: string, client = su) => listed(client, `${rel(post)}/candidates`, key);

  it('serves the RelationSchema', async () => {
    const res = await su.get(`${POSTS}/schema/relation/comments`);
    expect(res.status).toBe(200);
    const schema = res.body.data;
    expect(Object.keys(schema).sort()).toEqual(['deferrable', 'kind', 'label', 'manage', 'manageForm', 'messages', 'name', 'view']);
    expect(schema).toMatchObject({ name: 'comments', label: 'Comments', kind: 'hasMany', deferrable: true });
    expect(schema.view).toEqual({
      list: {
        columns: [
          { key: 'author_name', label: 'Author', searchable: true, sortable: true },
          { key: 'body', label: 'Comment', searchable: true, sortable: false },
          { key: 'is_approved', label: 'Approved', searchable: false, sortable: true },
          { key: 'created_at', label: 'Written', searchable: false, sortable: true },
        ],
      },
      showSearch: true,
      toolbarButtons: ['create', 'update', 'delete', 'link', 'unlink'],
    });
    expect(schema.manage.list.columns.map((c: { key: string }) => c.key)).toEqual(['author_name', 'body']);
    expect(schema.manageForm.map((f: { name: string; type: string }) => [f.name, f.type])).toEqual([
      ['author_name', 'text'],
      ['body', 'textarea'],
      ['is_approved', 'switch'],
    ]);
    // The core's yes/no type, registered by the backend plugin: its element, no options.
    expect(schema.manageForm[2]).toMatchObject({ name: 'is_approved', element: 'cms-switch', default: false, typeOptions: {} });
    expect(schema.manageForm[2]).not.toHaveProperty('options');
    expect(schema.manageForm.slice(0, 2).every((f: { required?: boolean }) => f.required === true)).toBe(true);
    expect(Object.keys(schema.messages).sort()).toEqual(
      [
        'candidateSearch',
        'create',
        'createSubmit',
        'createTitle',
        'created',
        'deleteConfirm',
        'deleteOneConfirm',
        'deleteSelected',
        'deleted',
        'editPivot',
        'empty',
        'link',
        'linkHint',
        'linkSubmit',
        'linked',
        'pivotSaved',
        'pivotSubmit',
        'pivotTitle',
        'previewTitle',
        'unlinkConfirm',
        'unlinkSelected',
        'unlinked',
        'updateSubmit',
        'updateTitle',
        'updated',
      ].sort(),
    );
    for (const forms of Object.values(schema.messages) as Array<Record<string, string>>) expect(typeof forms.other).toBe('string');
    // Localized: the German schema differs.
    const de = (await su.locale('de').get(`${POSTS}/schema/relation/comments`)).body.data;
    expect(de.messages.empty.other).not.toBe(schema.messages.empty.other);
    expect((await su.get(`${POSTS}/schema/relation/nope`)).status).toBe(404);
    // A relation property no relation manager declares.
    expect((await su.get(`${POSTS}/schema/relation/lead`)).status).toBe(404);
  });

  describe('on a saved post (changes written at once)', () => {
    it('creates, shows, updates and deletes children; a child of another post is 404', async () => {
      const post = await newPost();
      const other = await newPost();
      const created = await su.post(`${rel(post)}/records`, { author_name: 'Ann', body: 'First!', is_approved: true });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.data).toMatchObject({ author_name: 'Ann', body: 'First!', is_approved: true });
      const child = created.body.data.id as number;
      expect(await stored(post)).toEqual([child]);
      // The key is the server's: a client cannot send one.
      expect422(await su.post(`${rel(post)}/records`, { author_name: 'x', body: 'y', post: other }), ['post']);
      expect422(await su.post(`${rel(post)}/records`, { body: 'no author' }), ['author_name']);
      expect(await stored(post)).toEqual([child]);

      const shown = await su.get(`${rel(post)}/records/${child}`);
      expect(shown.status).toBe(200);
      expect(shown.body.data).toEqual({ id: child, author_name: 'Ann', body: 'First!', is_approved: true });
      const updated = await su.put(`${rel(post)}/records/${child}`, { body: 'Edited', is_approved: false });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expect(updated.body.data).toMatchObject({ body: 'Edited', is_approved: false });
      expect(await t.sql('select body, is_approved, post_id from test_press_comments where id = ?', [child])).toEqual([
        { body: 'Edited', is_approved: false, post_id: post },
      ]);

      // Through another post, or as an orphan, the child is not there.
      const foreign = await comment(other);
      const orphan = await comment(null);
      for (const id of [foreign, orphan, 999999]) {
        expect((await su.get(`${rel(post)}/records/${id}`)).status).toBe(404);
        expect((await su.put(`${rel(post)}/records/${id}`, { body: 'stolen' })).status).toBe(404);
      }
      expect((await su.get(`${rel(other)}/records/${child}`)).status).toBe(404);
      expect((await su.get(`${rel(post)}/records/abc`)).status).toBe(404);
      expect(await t.sql('select body from test_press_comments where id in (?, ?) order by id', [foreign, orphan])).toEqual([
        { body: 'Some words' },
        { body: 'Some words' },
      ]);

      // Delete is all or nothing.
      const second = await comment(post);
      const before = await snapshot(t, ['test_press_comments']);
      for (const ids of [
        [child, foreign],
        [child, orphan],
        [second, 999999],
      ]) {
        const res = await su.post(`${rel(post)}/delete`, { ids });
        expect(res.status, JSON.stringify(ids)).toBe(404);
      }
      expect(await snapshot(t, ['test_press_comments'])).toEqual(before);
      const deleted = await su.post(`${rel(post)}/delete`, { ids: [child, second] });
      expect(deleted.status).toBe(200);
      expect(deleted.body.data).toEqual({ removed: 2 });
      expect(await stored(post)).toEqual([]);
      expect(await postOf(foreign)).toBe(other);
      // Each direct change left an audit row.
      const audit = await t.sql<{ detail: string }>(
        `select detail from cms_audit where action = 'relation' and target = ? and record_id = ? order by id`,
        [POSTS, post],
      );
      // Each names the children it concerned (docs/relations.md, "Audit rows").
      expect(audit.map((row) => row.detail)).toEqual([
        `comments:create:${child}`,
        `comments:update:${child}`,
        `comments:delete:${Math.min(child, second)},${Math.max(child, second)}`,
      ]);
    });

    it('links an orphan, unlinks it again (its key cleared); a comment of another post is not linkable', async () => {
      const post = await newPost();
      const other = await newPost();
      const orphan = await comment(null);
      const foreign = await comment(other);
      const child = await comment(post);

      const linked = await su.post(`${rel(post)}/link`, { ids: [orphan] });
      expect(linked.status, JSON.stringify(linked.body)).toBe(200);
      expect(linked.body.data).toEqual({ linked: 1 });
      expect(await stored(post)).toEqual([child, orphan].sort((a, b) => a - b));
      expect(await members(post)).toEqual([child, orphan].sort((a, b) => a - b));

      // Another post's comment, a missing one, or an already linked one mixed in: 422 on the field, nothing linked.
      const free = await comment(null);
      const before = await snapshot(t, ['test_press_comments']);
      for (const ids of [[foreign], [free, foreign], [999999], [free, 999999]]) {
        expect422(await su.post(`${rel(post)}/link`, { ids }), ['comments']);
      }
      expect(await snapshot(t, ['test_press_comments'])).toEqual(before);

      const unlinked = await su.post(`${rel(post)}/unlink`, { ids: [orphan] });
      expect(unlinked.status).toBe(200);
      expect(unlinked.body.data).toEqual({ removed: 1 });
      expect(await postOf(orphan)).toBeNull();
      expect(await stored(post)).toEqual([child]);
      // Unlinking what is not a child is 404, and nothing changes.
      for (const ids of [[orphan], [foreign], [child, foreign], [999999]]) {
        expect((await su.post(`${rel(post)}/unlink`, { ids })).status, JSON.stringify(ids)).toBe(404);
      }
      expect(await stored(post)).toEqual([child]);
      expect(await postOf(foreign)).toBe(other);
    });

    it('candidates are orphans only: never a child of any post, never a comment created under a form session', async () => {
      const post = await newPost();
      const other = await newPost();
      const orphan = await comment(null);
      const child = await comment(post);
      const foreign = await comment(other);
      // A comment created in the form of another, not yet saved, post: an orphan in the table, yet nobody's candidate.
      const pending = await keyed(su.post(`${rel(0)}/records`, { author_name: 'Pending', body: 'not yet' }), unique('form'));
      expect(pending.status).toBe(201);
      const pendingId = pending.body.data.id as number;
      expect(await postOf(pendingId)).toBeNull();
      const pendingOnSaved = await keyed(su.post(`${rel(other)}/records`, { author_name: 'Pending', body: 'later' }), unique('form'));
      expect(pendingOnSaved.status).toBe(201);

      const ids = await candidates(post);
      expect(ids).toContain(orphan);
      for (const id of [child, foreign, pendingId, pendingOnSaved.body.data.id]) expect(ids).not.toContain(id);
      const orphans = (await t.sql<{ id: number }>('select id from test_press_comments where post_id is null order by id')).map(
        (r) => r.id,
      );
      expect(ids).toEqual(orphans.filter((id) => id !== pendingId && id !== pendingOnSaved.body.data.id));
      // Nor can they be linked.
      expect422(await su.post(`${rel(post)}/link`, { ids: [pendingId] }), ['comments']);
      expect(await postOf(pendingId)).toBeNull();
      // The candidate list shows the manage columns.
      const res = await su.get(`${rel(post)}/candidates`, { search: 'Some words', per_page: '20' });
      expect(Object.keys(res.body.data[0]).sort()).toEqual(['author_name', 'body', 'id']);
    });
  });

  describe('before the first save (record 0 and X-Session-Key)', () => {
    it('needs a well-formed session key', async () => {
      expect422(await su.get(rel(0)), ['X-Session-Key']);
      expect422(await su.post(`${rel(0)}/records`, { author_name: 'a', body: 'b' }), ['X-Session-Key']);
      // Letters, digits, `-`, `_` and `.`, 1 to 128 of them (headers carry ASCII only).
      for (const key of ['has space', 'x'.repeat(129), 'a/b', 'semi;colon', 'per%cent']) {
        expect422(await su.get(rel(0)).set('X-Session-Key', key), ['X-Session-Key']);
      }
      expect422(await su.post(POSTS, { title: 'x', slug: unique('bad-key') }).set('X-Session-Key', 'bad key'), ['X-Session-Key']);
      expect((await su.get(rel(0)).set('X-Session-Key', 'A-z_0.9')).status).toBe(200);
    });

    it('holds create, link, unlink and delete under the key; the create save with the key applies them all', async () => {
      const key = unique('form');
      const [o1, o2, o3, o4] = [await comment(null), await comment(null), await comment(null), await comment(null)];
      const create = async (author: string) => {
        const res = await keyed(su.post(`${rel(0)}/records`, { author_name: author, body: `by ${author}` }), key);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body.data.id as number;
      };
      const a = await create('Ann');
      const b = await create('Bob');
      for (const ids of [[o1, o2], [o3]]) {
        const res = await keyed(su.post(`${rel(0)}/link`, { ids }), key);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.data).toEqual({ linked: ids.length });
      }
      expect((await keyed(su.post(`${rel(0)}/unlink`, { ids: [o2] }), key)).body.data).toEqual({ removed: 1 });
      expect((await keyed(su.post(`${rel(0)}/delete`, { ids: [b, o3] }), key)).body.data).toEqual({ removed: 2 });
      // A created child shows and updates under the key.
      expect((await keyed(su.get(`${rel(0)}/records/${a}`), key)).body.data).toMatchObject({ author_name: 'Ann' });
      expect((await keyed(su.put(`${rel(0)}/records/${a}`, { body: 'edited before save' }), key)).status).toBe(200);
      // Not a member: unlink, delete and show are 404.
      expect((await keyed(su.post(`${rel(0)}/unlink`, { ids: [o4] }), key)).status).toBe(404);
      expect((await keyed(su.post(`${rel(0)}/delete`, { ids: [o4] }), key)).status).toBe(404);
      expect((await keyed(su.get(`${rel(0)}/records/${o4}`), key)).status).toBe(404);

      // The pending state: Ann and o1 in; o2 a candidate again; Bob gone at once (never saved); o3 waits for the save.
      expect(await members(0, key)).toEqual([a, o1].sort((x, y) => x - y));
      const open = await candidates(0, key);
      expect(open).toEqual(expect.arrayContaining([o2, o4]));
      for (const id of [a, o1, b]) expect(open).not.toContain(id);
      expect(await postOf(b)).toBe('gone');
      for (const id of [a, o1, o2, o3, o4]) expect(await postOf(id)).toBeNull();
      // Another key, another admin with the key, and no key at all see none of it.
      const colleague = await signIn(t, { permissions: { 'test.press.posts': 1 } });
      expect(await members(0, unique('form'))).toEqual([]);
      expect(await members(0, key, colleague)).toEqual([]);
      expect(await candidates(0, key, colleague)).toContain(o1);

      const saved = await keyed(su.post(POSTS, { title: 'With comments', slug: unique('with') }), key);
      expect(saved.status, JSON.stringify(saved.body)).toBe(201);
      const post = saved.body.data.id as number;
      expect(await stored(post)).toEqual([a, o1].sort((x, y) => x - y));
      expect(await t.sql('select body from test_press_comments where id = ?', [a])).toEqual([{ body: 'edited before save' }]);
      expect(await postOf(o2)).toBeNull();
      expect(await postOf(o3)).toBe('gone');
      expect(await postOf(o4)).toBeNull();
      expect(await members(post)).toEqual([a, o1].sort((x, y) => x - y));
      // The key's bindings are used up: a second save with it applies nothing more.
      expect(await t.sql('select count(*)::int as n from cms_bindings where session_key = ?', [key])).toEqual([{ n: 0 }]);
      const again = await keyed(su.post(POSTS, { title: 'Same key', slug: unique('same') }), key);
      expect(await stored(again.body.data.id)).toEqual([]);
    });

    it('a save with another key, no key, or by another admin applies nothing', async () => {
      const key = unique('form');
      const orphan = await comment(null);
      const created = await keyed(su.post(`${rel(0)}/records`, { author_name: 'Kept', body: 'pending' }), key);
      expect((await keyed(su.post(`${rel(0)}/link`, { ids: [orphan] }), key)).status).toBe(200);
      const colleague = await signIn(t, { permissions: { 'test.press.posts': 1 } });

      const saves = [
        keyed(su.post(POSTS, { title: 'Other key', slug: unique('other') }), unique('form')),
        su.post(POSTS, { title: 'No key', slug: unique('none') }),
        keyed(colleague.post(POSTS, { title: 'Colleague', slug: unique('colleague') }), key),
      ];
      for (const request of saves) {
        const res = await request;
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        expect(await stored(res.body.data.id)).toEqual([]);
      }
      expect(await postOf(orphan)).toBeNull();
      expect(await postOf(created.body.data.id)).toBeNull();
      // Still held for the admin who made them.
      expect(await members(0, key)).toEqual([created.body.data.id, orphan].sort((x, y) => x - y));
      const mine = await keyed(su.post(POSTS, { title: 'Mine', slug: unique('mine') }), key);
      expect(await stored(mine.body.data.id)).toEqual([created.body.data.id, orphan].sort((x, y) => x - y));
    });

    it('an orphan linked under the key and adopted by another post meanwhile: the save is 422 on comments, nothing written', async () => {
      const key = unique('form');
      const orphan = await comment(null);
      const kept = await keyed(su.post(`${rel(0)}/records`, { author_name: 'Kept', body: 'pending' }), key);
      expect((await keyed(su.post(`${rel(0)}/link`, { ids: [orphan] }), key)).status).toBe(200);
      const thief = await newPost();
      expect((await su.post(`${rel(thief)}/link`, { ids: [orphan] })).status).toBe(200);

      const tables = ['test_press_posts', 'test_press_comments', 'test_press_posts_categories', 'cms_bindings'];
      const before = await snapshot(t, tables);
      const res = await keyed(su.post(POSTS, { title: 'Too late', slug: unique('late') }), key);
      expect422(res, ['comments']);
      expect(await snapshot(t, tables)).toEqual(before);
      expect(await postOf(orphan)).toBe(thief);
      expect(await postOf(kept.body.data.id)).toBeNull();
      // The form still shows the lost link (pending), and can drop it and save.
      expect(await members(0, key)).toEqual([kept.body.data.id, orphan].sort((x, y) => x - y));
      expect((await keyed(su.post(`${rel(0)}/unlink`, { ids: [orphan] }), key)).status).toBe(200);
      expect(await members(0, key)).toEqual([kept.body.data.id]);
      const saved = await keyed(su.post(POSTS, { title: 'Second try', slug: unique('late') }), key);
      expect(saved.status, JSON.stringify(saved.body)).toBe(201);
      expect(await stored(saved.body.data.id)).toEqual([kept.body.data.id]);
      expect(await postOf(orphan)).toBe(thief);
    });

    it('linking again what was deleted under the key undoes the deletion', async () => {
      // A stored child deleted in the form of its saved post, then linked again: it stays the post's.
      const post = await newPost();
      const child = await comment(post);
      const key = unique('form');
      expect((await keyed(su.post(`${rel(post)}/delete`, { ids: [child] }), key)).status).toBe(200);
      expect(await members(post, key)).toEqual([]);
      expect((await keyed(su.post(`${rel(post)}/link`, { ids: [child] }), key)).status).toBe(200);
      expect(await members(post, key)).toEqual([child]);
      expect((await keyed(su.put(`${POSTS}/${post}`, { excerpt: 'kept' }), key)).status).toBe(200);
      expect(await postOf(child)).toBe(post);

      // An orphan linked in the form of a new post, deleted, then linked again: the post's after the save, not deleted.
      const orphan = await comment(null);
      const fresh = unique('form');
      expect((await keyed(su.post(`${rel(0)}/link`, { ids: [orphan] }), fresh)).status).toBe(200);
      expect((await keyed(su.post(`${rel(0)}/delete`, { ids: [orphan] }), fresh)).status).toBe(200);
      expect(await members(0, fresh)).toEqual([]);
      expect((await keyed(su.post(`${rel(0)}/link`, { ids: [orphan] }), fresh)).status).toBe(200);
      expect(await members(0, fresh)).toEqual([orphan]);
      const saved = await keyed(su.post(POSTS, { title: 'Relinked', slug: unique('relinked') }), fresh);
      expect(saved.status, JSON.stringify(saved.body)).toBe(201);
      expect(await postOf(orphan)).toBe(saved.body.data.id);
    });

    it('an update save with the key applies what was held on a saved post', async () => {
      const post = await newPost();
      const [c1, c2, c3] = [await comment(post), await comment(post), await comment(post)];
      const orphan = await comment(null);
      const key = unique('form');
      expect((await keyed(su.post(`${rel(post)}/unlink`, { ids: [c1] }), key)).status).toBe(200);
      expect((await keyed(su.post(`${rel(post)}/delete`, { ids: [c2] }), key)).status).toBe(200);
      expect((await keyed(su.post(`${rel(post)}/link`, { ids: [orphan] }), key)).status).toBe(200);
      const created = (await keyed(su.post(`${rel(post)}/records`, { author_name: 'New', body: 'x' }), key)).body.data.id as number;
      // Held: the table is unchanged, the list under the key shows the pending state, the list without it the stored one.
      expect(await stored(post)).toEqual([c1, c2, c3]);
      expect(await members(post, key)).toEqual([c3, orphan, created].sort((x, y) => x - y));
      expect(await members(post)).toEqual([c1, c2, c3]);
      // A held unlink can be undone by linking again.
      expect(await candidates(post, key)).toContain(c1);

      expect((await keyed(su.put(`${POSTS}/${post}`, { excerpt: 'other key' }), unique('form'))).status).toBe(200);
      expect(await stored(post)).toEqual([c1, c2, c3]);
      const saved = await keyed(su.put(`${POSTS}/${post}`, { excerpt: 'saved' }), key);
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(await stored(post)).toEqual([c3, orphan, created].sort((x, y) => x - y));
      expect(await postOf(c1)).toBeNull();
      expect(await postOf(c2)).toBe('gone');
    });
  });

  it('the sweep removes a form never saved: its bindings and the comments created under them, never a saved one', async () => {
    const key = unique('abandoned');
    const post = await newPost();
    const orphan = await comment(null);
    const child = await comment(post);
    const create = async (id: number) =>
      (await keyed(su.post(`${rel(id)}/records`, { author_name: 'Lost', body: 'never saved' }), key)).body.data.id as number;
    const [lost, lostOnSaved, rescued] = [await create(0), await create(post), await create(0)];
    expect((await keyed(su.post(`${rel(0)}/link`, { ids: [orphan] }), key)).status).toBe(200);
    expect((await keyed(su.post(`${rel(post)}/unlink`, { ids: [child] }), key)).status).toBe(200);
    // One of them got a post meanwhile (saved by other means): the sweep leaves it.
    await t.sql('update test_press_comments set post_id = ? where id = ?', [post, rescued]);
    const fresh = unique('fresh');
    const kept = (await keyed(su.post(`${rel(0)}/records`, { author_name: 'Fresh', body: 'still open' }), fresh)).body.data.id as number;

    // Younger than the age: nothing goes.
    expect(await t.core.sweepFormSessions(3600)).toBe(0);
    await t.sql(`update cms_bindings set created_at = now() - interval '2 hours' where session_key = ?`, [key]);
    expect(await t.core.sweepFormSessions(3600)).toBe(5);
    for (const id of [lost, lostOnSaved]) expect(await postOf(id)).toBe('gone');
    expect(await postOf(rescued)).toBe(post);
    expect(await postOf(orphan)).toBeNull();
    expect(await postOf(child)).toBe(post);
    expect(await postOf(kept)).toBeNull();
    expect(await t.sql('select count(*)::int as n from cms_bindings where session_key = ?', [key])).toEqual([{ n: 0 }]);
    expect(await members(0, fresh)).toEqual([kept]);
  });

  describe('permissions', () => {
    it('an admin without test.press.posts gets 403 on every relation route; one with it works', async () => {
      const post = await newPost();
      const child = await comment(post);
      const orphan = await comment(null);
      const outsider = await signIn(t, { permissions: { 'test.press.products': 1 } });
      const tables = ['test_press_posts', 'test_press_comments', 'cms_bindings'];
      const before = await snapshot(t, tables);
      for (const [id, key] of [
        [post, undefined],
        [post, 'outsider-form'],
        [0, 'outsider-form'],
      ] as const) {
        const base = rel(id);
        const requests: Array<[string, () => Test]> = [
          ['schema', () => outsider.get(`${POSTS}/schema/relation/comments`)],
          ['list', () => outsider.get(base)],
          ['candidates', () => outsider.get(`${base}/candidates`)],
          ['link', () => outsider.post(`${base}/link`, { ids: [orphan] })],
          ['unlink', () => outsider.post(`${base}/unlink`, { ids: [child] })],
          ['delete', () => outsider.post(`${base}/delete`, { ids: [child] })],
          ['create', () => outsider.post(`${base}/records`, { author_name: 'x', body: 'y' })],
          ['show', () => outsider.get(`${base}/records/${child}`)],
          ['update', () => outsider.put(`${base}/records/${child}`, { body: 'z' })],
        ];
        for (const [name, request] of requests) {
          const res = await keyed(request(), key);
          expect(res.status, `${name} on ${id} ${key ?? ''}`).toBe(403);
          expect(res.body.error.code).toBe('forbidden');
        }
        // A hasMany has no pivot form: the posts have no pivot route, whose paths are the JSON 404 (docs/relations.md, "Routes").
        for (const request of [() => outsider.get(`${base}/pivot/${child}`), () => outsider.put(`${base}/pivot/${child}`, {})]) {
          const res = await keyed(request(), key);
          expect(res.status).toBe(404);
          expect(res.body.error.code).toBe('not_found');
        }
      }
      expect(await snapshot(t, tables)).toEqual(before);

      const writer = await signIn(t, { permissions: { 'test.press.posts': 1 } });
      expect((await writer.get(`${POSTS}/schema/relation/comments`)).status).toBe(200);
      expect(await members(post, undefined, writer)).toEqual([child]);
      expect((await writer.post(`${rel(post)}/link`, { ids: [orphan] })).status).toBe(200);
      expect((await writer.put(`${rel(post)}/records/${child}`, { body: 'by the writer' })).status).toBe(200);
      const key = unique('form');
      const created = await keyed(writer.post(`${rel(0)}/records`, { author_name: 'Writer', body: 'pending' }), key);
      expect(created.status).toBe(201);
      const saved = await keyed(writer.post(POSTS, { title: 'By the writer', slug: unique('writer') }), key);
      expect(saved.status).toBe(201);
      expect(await stored(saved.body.data.id)).toEqual([created.body.data.id]);
    });
  });

  describe('the relation list', () => {
    let post: number;
    beforeAll(async () => {
      post = await newPost();
      // 25 comments: authors Author 01…25, every fifth one approved, written a minute apart (Author 25 newest).
      await t.sql(
        `insert into test_press_comments (post_id, author_name, body, is_approved, created_at)
         select ?, 'Author ' || lpad(n::text, 2, '0'), case when n % 2 = 0 then 'even words' else 'odd words' end, n % 5 = 0,
                timestamptz '2024-01-01 00:00:00+00' + (n || ' minutes')::interval
         from generate_series(1, 25) as n`,
        [post],
      );
    });
    const authors = (res: { body: { data: Array<{ author_name: string }> } }) => res.body.data.map((row) => row.author_name);

    it('pages with the ListMeta, newest first by default', async () => {
      const first = await su.get(rel(post));
      expect(first.status).toBe(200);
      expect(first.body.meta).toEqual({ page: 1, per_page: 20, total: 25, last_page: 2 });
      expect(authors(first)[0]).toBe('Author 25');
      expect(Object.keys(first.body.data[0]).sort()).toEqual(['author_name', 'body', 'created_at', 'id', 'is_approved']);
      const second = await su.get(rel(post), { page: '2' });
      expect(authors(second)).toEqual(['Author 05', 'Author 04', 'Author 03', 'Author 02', 'Author 01']);
      expect((await su.get(rel(post), { page: '3' })).body.data).toEqual([]);
    });

    it('searches the searchable columns and sorts on the sortable ones', async () => {
      const search = await su.get(rel(post), { search: 'author 1', sort: 'author_name', dir: 'asc' });
      expect(authors(search)).toEqual([
        'Author 10',
        'Author 11',
        'Author 12',
        'Author 13',
        'Author 14',
        'Author 15',
        'Author 16',
        'Author 17',
        'Author 18',
        'Author 19',
      ]);
      expect(search.body.meta.total).toBe(10);
      const byBody = await su.get(rel(post), { search: 'even', per_page: '50' });
      expect(byBody.body.meta.total).toBe(12);
      const desc = await su.get(rel(post), { sort: 'author_name', dir: 'desc', per_page: '50' });
      expect(authors(desc)).toEqual([...authors(desc)].sort().reverse());
      const approved = await su.get(rel(post), { sort: 'is_approved', dir: 'desc', per_page: '50' });
      expect(approved.body.data.slice(0, 5).every((row: { is_approved: boolean }) => row.is_approved)).toBe(true);
      const oldest = await su.get(rel(post), { sort: 'created_at', dir: 'asc' });
      expect(authors(oldest)[0]).toBe('Author 01');
      // Only declared columns sort; the query is checked like a controller list's.
      expect422(await su.get(rel(post), { sort: 'body' }), ['sort']);
      expect422(await su.get(rel(post), { sort: 'post_id' }), ['sort']);
      expect422(await su.get(rel(post), { dir: 'up' }), ['dir']);
      expect422(await su.get(rel(post), { page: '0' }), ['page']);
      expect422(await su.get(rel(post), { per_page: '7' }), ['per_page']);
      expect422(await su.get(rel(post), { nope: '1' }), ['nope']);
      // Candidates search too (over the manage columns).
      const orphan = await comment(null, unique('Needle'));
      const found = await su.get(`${rel(post)}/candidates`, { search: 'needle' });
      expect(found.body.data.map((row: { id: number }) => row.id)).toEqual([orphan]);
      expect422(await su.get(`${rel(post)}/candidates`, { sort: 'author_name' }), ['sort']);
    });

    it('a parent that does not exist is 404', async () => {
      for (const id of ['999999', 'abc', '-1', '01', '1.5', '99999999999'])
        expect((await su.get(`${POSTS}/${id}/relations/comments`)).status, id).toBe(404);
      expect((await su.get(`${POSTS}/${post}/relations/nope`)).status).toBe(404);
      expect((await su.get(`${POSTS}/${post}/relations/lead`)).status).toBe(404);
    });
  });
});
