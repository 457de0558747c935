import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeededAdmin, TestAdmin } from '../../../../test/support/app.ts';
import { POSTS, PRODUCTS, STOREFRONT } from '../fixtures/press.ts';
import { POSTS_PERMISSION, PUBLISH_PERMISSION } from '../fixtures/press-posts.ts';
import { auditOf, refusal, startLocalAdmin } from './support.ts';

/*
 * The local API on records (docs/local-api.md, "Records"): create, find, update, list, delete and
 * bulk delete without HTTP, as an admin with and without the controller's permission, and as the
 * system actor, with the validation, hooks and audit rows of the routes.
 */

let t: TestAdmin;
let editor: SeededAdmin;
let outsider: SeededAdmin;
const posts = () => t.sql<{ id: number; title: string; status: string }>('select id, title, status from test_press_posts order by id');

beforeAll(async () => {
  t = await startLocalAdmin();
  editor = await t.createAdmin({ permissions: { [POSTS_PERMISSION]: 1 } });
  outsider = await t.createAdmin();
});
afterAll(() => t?.close());

describe('records as an admin', () => {
  it('creates, reads, updates with If-Match, lists and deletes; each write has its audit row naming the admin', async () => {
    const { local } = t.core;
    const created = await local.create(POSTS, { data: { title: 'Hello', slug: 'hello' } }, { as: editor.id });
    const id = created.data.id as number;
    expect(created.data).toMatchObject({ title: 'Hello', slug: 'hello', status: 'draft' });

    const found = await local.find(POSTS, id, { as: editor.id });
    expect(found.data.title).toBe('Hello');
    expect(found.meta.etag).toMatch(/^"/);
    await local.update(POSTS, id, { data: { title: 'Hello again' }, ifMatch: found.meta.etag }, { as: editor.id });
    // The tag read before the update is stale now: 412, nothing written.
    expect(await refusal(local.update(POSTS, id, { data: { title: 'Lost' }, ifMatch: found.meta.etag }, { as: editor.id }))).toMatchObject({
      status: 412,
      code: 'version_mismatch',
    });

    const list = await local.list(POSTS, { search: 'again', perPage: 20 }, { as: editor.id });
    expect(list.data.map((row) => row.title)).toEqual(['Hello again']);
    expect(list.meta).toMatchObject({ total: 1, page: 1, per_page: 20 });

    expect(await local.delete(POSTS, id, { as: editor.id })).toEqual({ deleted: 1 });
    expect(await posts()).toEqual([]);
    const audit = await auditOf(t, POSTS);
    expect(audit.map((row) => [row.action, row.admin_id, row.actor, row.ip])).toEqual([
      ['create', editor.id, editor.login, 'local'],
      ['update', editor.id, editor.login, 'local'],
      ['delete', editor.id, editor.login, 'local'],
    ]);
    expect(audit.every((row) => /^local-[0-9a-f-]{36}$/.test(row.request_id))).toBe(true);
  });

  it('refuses as HTTP does: validation (422), field write permissions (403), list query (422); nothing written', async () => {
    const { local } = t.core;
    expect(await refusal(local.create(POSTS, { data: { slug: 'no-title' } }, { as: editor.id }))).toMatchObject({
      status: 422,
      keys: ['title'],
    });
    // Publishing by a save needs the publish permission (a field-level write rule).
    expect(await refusal(local.create(POSTS, { data: { title: 'P', slug: 'p', status: 'published' } }, { as: editor.id }))).toMatchObject({
      status: 403,
      keys: ['status'],
    });
    expect(await refusal(local.list(POSTS, { sort: 'nope' }, { as: editor.id }))).toMatchObject({ status: 422, keys: ['sort'] });
    expect(await posts()).toEqual([]);
  });

  it('refuses a caller without the controller permission (403 forbidden) before anything is read or written', async () => {
    const { local } = t.core;
    const before = (await auditOf(t, POSTS)).length;
    // Thunks, started one at a time: a refusal nobody awaits yet would be an unhandled rejection.
    for (const work of [
      () => local.create(POSTS, { data: { title: 'Nope', slug: 'nope' } }, { as: outsider.id }),
      () => local.list(POSTS, {}, { as: outsider.id }),
      () => local.find(POSTS, 1, { as: outsider.id }),
      () => local.bulkDelete(POSTS, [1], { as: outsider.id }),
    ])
      expect(await refusal(work())).toMatchObject({ status: 403, code: 'forbidden' });
    expect(await posts()).toEqual([]);
    expect(await auditOf(t, POSTS)).toHaveLength(before);
  });

  it('answers 404 for an unknown controller or an operation the controller has no route for, 401 for a suspended admin', async () => {
    const { local } = t.core;
    expect(await refusal(local.list('test/press/nothing', {}, { as: editor.id }))).toMatchObject({ status: 404 });
    // A singleton has no list and no create.
    const superuser = await t.createAdmin({ isSuperuser: true });
    expect(await refusal(local.list(STOREFRONT, {}, { as: superuser.id }))).toMatchObject({ status: 404 });
    expect(await refusal(local.create(STOREFRONT, { data: {} }, { as: superuser.id }))).toMatchObject({ status: 404 });
    const storefront = await local.singleton(STOREFRONT, { as: superuser.id });
    expect(storefront.data).toMatchObject({ name: '' });
    const suspended = await t.createAdmin({ permissions: { [POSTS_PERMISSION]: 1 } });
    await t.sql('update cms_admins set suspended_at = now() where id = ?', [suspended.id]);
    expect(await refusal(local.list(POSTS, {}, { as: suspended.id }))).toMatchObject({ status: 401 });
    expect(await refusal(local.list(POSTS, {}, { as: 999_999 }))).toMatchObject({ status: 401 });
  });

  it('messages come in the locale asked for (en by default)', async () => {
    const { local } = t.core;
    const english = await local.create(POSTS, { data: { slug: 'x' } }, { as: editor.id }).catch((error: Error) => error);
    const german = await local.create(POSTS, { data: { slug: 'x' } }, { as: editor.id, locale: 'de' }).catch((error: Error) => error);
    expect(english).not.toEqual(german);
    await expect(local.list(POSTS, {}, { as: editor.id, locale: 'fr' })).rejects.toThrow(/locale "fr"/);
  });
});

describe('records as the system', () => {
  it('holds every permission, and its audit rows name the system (admin_id null, actor system)', async () => {
    const { local } = t.core;
    // Publishing needs PUBLISH_PERMISSION (a field write rule): the system has it.
    const created = await local.create(POSTS, { data: { title: 'By the system', slug: 'system', status: 'published' } }, { as: 'system' });
    const id = created.data.id as number;
    await local.actions.record(POSTS, id, 'archive', { as: 'system' });
    expect(await posts()).toEqual([{ id, title: 'By the system', status: 'archived' }]);
    const audit = (await auditOf(t, POSTS)).filter((row) => row.record_id === id);
    expect(audit.map((row) => [row.action, row.admin_id, row.actor, row.detail])).toEqual([
      ['create', null, 'system', ''],
      ['action', null, 'system', 'record:archive'],
    ]);
    await local.bulkDelete(POSTS, [id], { as: 'system' });
    expect(await posts()).toEqual([]);
  });

  it('refuses a form session key as the system: it belongs to an admin', async () => {
    await expect(
      t.core.local.create(PRODUCTS, { data: { name: 'x', sku: 'x' }, sessionKey: 'a'.repeat(32) }, { as: 'system' }),
    ).rejects.toThrow(/as: adminId/);
  });

  it('record actions check their own permissions for an admin', async () => {
    const { local } = t.core;
    const created = await local.create(POSTS, { data: { title: 'Draft', slug: 'draft' } }, { as: editor.id });
    const id = created.data.id as number;
    expect(await refusal(local.actions.record(POSTS, id, 'publish', { as: editor.id }))).toMatchObject({ status: 403 });
    const publisher = await t.createAdmin({ permissions: { [POSTS_PERMISSION]: 1, [PUBLISH_PERMISSION]: 1 } });
    await local.actions.record(POSTS, id, 'publish', { as: publisher.id });
    expect((await local.find(POSTS, id, { as: editor.id })).data.status).toBe('published');
    const bulk = await local.actions.bulk(POSTS, [id], 'publish', { as: publisher.id });
    expect(bulk.affected).toBe(0);
    expect((await local.actions.toolbar(POSTS, 'count', { as: editor.id })).data).toEqual({ posts: 1 });
    await local.delete(POSTS, id, { as: editor.id });
  });
});
