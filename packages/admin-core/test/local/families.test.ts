import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeededAdmin, TestAdmin } from '../../../../test/support/app.ts';
import { POSTS, PRODUCTS } from '../fixtures/press.ts';
import { POSTS_PERMISSION } from '../fixtures/press-posts.ts';
import { MANAGE } from '../fixtures/settings.ts';
import { ENTRIES, LEDGER } from '../fixtures/tree.ts';
import { auditOf, blobsIn, png, refusal, startLocalAdmin } from './support.ts';

/*
 * Each operation family of the local API without HTTP (docs/local-api.md): relations, files,
 * reorder, options, settings and account, with and without permission (a refused call writes
 * nothing), and as the system.
 */

const PRODUCTS_PERMISSION = 'test.press.products';
const ENTRIES_PERMISSION = 'test.tree.entries';

let t: TestAdmin;
let editor: SeededAdmin;
let outsider: SeededAdmin;

beforeAll(async () => {
  t = await startLocalAdmin();
  editor = await t.createAdmin({ permissions: { [POSTS_PERMISSION]: 1, [PRODUCTS_PERMISSION]: 1, [ENTRIES_PERMISSION]: 1, [MANAGE]: 1 } });
  outsider = await t.createAdmin();
});
afterAll(() => t?.close());

describe('relations', () => {
  it('links with pivot values, shows, edits the pivot and unlinks; refused without permission', async () => {
    const { local } = t.core;
    const lamp = (await local.create(PRODUCTS, { data: { name: 'Lamp', sku: 'L-1' } }, { as: editor.id })).data.id as number;
    const bulb = (await local.create(PRODUCTS, { data: { name: 'Bulb', sku: 'B-1' } }, { as: editor.id })).data.id as number;
    const ref = { parentId: lamp, relation: 'accessories' };
    expect(await refusal(local.relations.link(PRODUCTS, { ...ref, ids: [bulb] }, { as: outsider.id }))).toMatchObject({ status: 403 });
    expect(await t.sql('select * from test_press_product_accessories')).toEqual([]);

    await local.relations.link(PRODUCTS, { ...ref, ids: [bulb], pivot: { quantity: 3 } }, { as: editor.id });
    const members = await local.relations.list(PRODUCTS, ref, { as: editor.id });
    expect(members.data.map((row) => row.name)).toEqual(['Bulb']);
    expect((await local.relations.pivot.show(PRODUCTS, { ...ref, child: bulb }, { as: editor.id })).data).toMatchObject({ quantity: 3 });
    await local.relations.pivot.update(PRODUCTS, { ...ref, child: bulb, values: { quantity: 5 } }, { as: editor.id });
    expect(await t.sql('select quantity from test_press_product_accessories')).toEqual([{ quantity: 5 }]);
    // The toolbar declares link and unlink only: create is 404, as its route is.
    expect(await refusal(local.relations.create(PRODUCTS, { ...ref, data: { name: 'x', sku: 'x' } }, { as: editor.id }))).toMatchObject({
      status: 404,
    });
    await local.relations.unlink(PRODUCTS, { ...ref, ids: [bulb] }, { as: editor.id });
    expect(await t.sql('select * from test_press_product_accessories')).toEqual([]);
    expect((await auditOf(t, PRODUCTS)).filter((row) => row.action === 'relation').map((row) => row.detail)).toEqual([
      `accessories:link:${bulb}`,
      `accessories:pivot:${bulb}`,
      `accessories:unlink:${bulb}`,
    ]);
  });

  it('creates and updates children through the manage form, as the system too', async () => {
    const { local } = t.core;
    const post = (await local.create(POSTS, { data: { title: 'P', slug: 'p' } }, { as: 'system' })).data.id as number;
    const ref = { parentId: post, relation: 'comments' };
    const child = await local.relations.create(POSTS, { ...ref, data: { author_name: 'Ann', body: 'Hi' } }, { as: 'system' });
    await local.relations.update(POSTS, { ...ref, child: child.data.id as number, data: { body: 'Hello' } }, { as: editor.id });
    expect(await t.sql('select author_name, body, post_id from test_press_comments')).toEqual([
      { author_name: 'Ann', body: 'Hello', post_id: post },
    ]);
    const rows = (await auditOf(t, POSTS)).filter((row) => row.action === 'relation');
    expect(rows.map((row) => [row.actor, row.admin_id])).toEqual([
      ['system', null],
      [editor.login, editor.id],
    ]);
    expect(await refusal(local.relations.delete(POSTS, { ...ref, ids: [child.data.id as number] }, { as: outsider.id }))).toMatchObject({
      status: 403,
    });
    await local.relations.delete(POSTS, { ...ref, ids: [child.data.id as number] }, { as: editor.id });
    expect(await t.sql('select * from test_press_comments')).toEqual([]);
  });
});

describe('files', () => {
  it('uploads from bytes, captions, lists, downloads and removes; refused without permission, nothing stored', async () => {
    const { local } = t.core;
    const post = (await local.create(POSTS, { data: { title: 'F', slug: 'f' } }, { as: editor.id })).data.id as number;
    const blobs = (await blobsIn(t.storageRoot)).length;
    const upload = { id: post, field: 'gallery', file: { buffer: await png(), name: 'a.png' } };
    expect(await refusal(local.files.upload(POSTS, upload, { as: outsider.id }))).toMatchObject({ status: 403 });
    expect(await blobsIn(t.storageRoot)).toHaveLength(blobs);

    const item = await local.files.upload(POSTS, upload, { as: editor.id });
    await local.files.caption(POSTS, { id: post, field: 'gallery', fileId: item.id, title: 'First' }, { as: editor.id });
    const items = await local.files.list(POSTS, { id: post, field: 'gallery' }, { as: editor.id });
    expect(items.map((file) => [file.file_name, file.title])).toEqual([['a.png', 'First']]);
    // A protected file's bytes (public ones are served by the store's URL).
    const product = (await local.create(PRODUCTS, { data: { name: 'Sheet', sku: 'S-1' } }, { as: editor.id })).data.id as number;
    const sheet = await local.files.upload(
      PRODUCTS,
      { id: product, field: 'datasheet', file: { buffer: Buffer.from('plain text sheet'), name: 'sheet.txt' } },
      { as: editor.id },
    );
    const bytes = await local.files.download(PRODUCTS, { id: product, field: 'datasheet', fileId: sheet.id }, { as: editor.id });
    expect(bytes.data.toString()).toBe('plain text sheet');
    await local.delete(PRODUCTS, product, { as: editor.id });
    expect(await local.files.remove(POSTS, { id: post, field: 'gallery', fileId: item.id }, { as: editor.id })).toEqual({ removed: 1 });
    expect(await t.sql('select id from cms_files')).toEqual([]);
  });

  it('as the system: uploaded_by is null and the audit row names the system', async () => {
    const { local } = t.core;
    const post = (await local.create(POSTS, { data: { title: 'S', slug: 's' } }, { as: 'system' })).data.id as number;
    await local.files.upload(POSTS, { id: post, field: 'cover_image', file: { buffer: await png(), name: 'c.png' } }, { as: 'system' });
    expect(await t.sql('select uploaded_by from cms_files where attachment_id = ?', [post])).toEqual([{ uploaded_by: null }]);
    const row = (await auditOf(t, POSTS)).find((entry) => entry.action === 'file' && entry.record_id === post);
    expect(row).toMatchObject({ admin_id: null, actor: 'system', detail: 'upload' });
  });

  it('a script names the system actor in the audit log; a bad name, or a name for an admin, is a programming error', async () => {
    const { local } = t.core;
    const post = (await local.create(POSTS, { data: { title: 'N', slug: 'n' } }, { as: 'system', actor: 'import:legacy' })).data.id;
    const row = (await auditOf(t, POSTS)).find((entry) => entry.action === 'create' && entry.record_id === post);
    expect(row).toMatchObject({ admin_id: null, actor: 'import:legacy' });
    for (const actor of ['', 'Has Spaces', 'x'.repeat(65)])
      await expect(local.list(POSTS, {}, { as: 'system', actor })).rejects.toThrow(/local API: actor/);
    await expect(local.list(POSTS, {}, { as: editor.id, actor: 'import' })).rejects.toThrow(/names the system actor/);
  });
});

describe('reorder and options', () => {
  it('reads and saves an order; refused without permission; 404 where the controller has no reorder', async () => {
    const { local } = t.core;
    const ids: number[] = [];
    for (const name of ['a', 'b', 'c'])
      ids.push((await local.create(ENTRIES, { data: { name, sku: name } }, { as: editor.id })).data.id as number);
    const nodes = [...ids].reverse().map((id) => ({ id, parent_id: null }));
    expect(await refusal(local.reorder.save(ENTRIES, nodes, { as: outsider.id }))).toMatchObject({ status: 403 });
    expect(await refusal(local.reorder.read(LEDGER, { as: editor.id }))).toMatchObject({ status: 404 });
    await local.reorder.save(ENTRIES, nodes, { as: editor.id });
    expect((await local.reorder.read(ENTRIES, { as: editor.id })).data.map((node) => node.id)).toEqual([...ids].reverse());
    expect(await refusal(local.reorder.save(ENTRIES, [{ id: ids[0]!, parent_id: null }], { as: editor.id }))).toMatchObject({
      status: 409,
      code: 'reorder_stale',
    });
  });

  it('answers the options of a relation field and of a scope filter', async () => {
    const { local } = t.core;
    await t.sql("insert into test_press_categories (name) values ('News')");
    const options = await local.fieldOptions(POSTS, { field: 'categories' }, { as: editor.id });
    expect(options.data.map((option) => option.label)).toEqual(['News']);
    expect((await local.filterOptions(POSTS, 'category', { as: editor.id })).map((option) => option.label)).toEqual(['News']);
    expect(await refusal(local.fieldOptions(POSTS, { field: 'categories' }, { as: outsider.id }))).toMatchObject({ status: 403 });
  });
});

describe('settings and account', () => {
  it('reads and saves settings with the entry permission; refused without, nothing saved', async () => {
    const { local } = t.core;
    expect(await refusal(local.settings.save('shop', { title: 'Nope' }, { as: outsider.id }))).toMatchObject({ status: 403 });
    expect(await refusal(local.settings.read('nothing', { as: editor.id }))).toMatchObject({ status: 404 });
    expect(await t.sql('select code from cms_settings')).toEqual([]);
    await local.settings.save('shop', { title: 'Shop', api_key: 'k-123' }, { as: editor.id });
    const read = await local.settings.read('shop', { as: editor.id });
    expect(read.data.title).toBe('Shop');
    expect(read.meta.secrets.api_key).toBe('stored');
    expect((await local.settings.entries({ as: editor.id })).map((entry) => entry.code)).toContain('shop');
    // Superusers only: the system may.
    await local.settings.save('superonly', { flag: 'on' }, { as: 'system' });
    expect((await auditOf(t, 'superonly')).map((row) => [row.action, row.actor, row.admin_id])).toEqual([['settings', 'system', null]]);
  });

  it("changes the caller's own preferences and profile; the system has no account", async () => {
    const { local } = t.core;
    expect(await local.account.preferences({ admin_locale: 'de' }, { as: editor.id })).toMatchObject({ admin_locale: 'de' });
    const profile = await local.account.update({ email: 'new@example.com', first_name: 'Ed' }, { as: editor.id });
    expect(profile).toMatchObject({ email: 'new@example.com', first_name: 'Ed' });
    expect(await refusal(local.account.update({ email: 'bad' }, { as: editor.id }))).toMatchObject({ status: 422, keys: ['email'] });
    await expect(local.account.preferences({ admin_theme: null }, { as: 'system' })).rejects.toThrow(/no account/);
  });

  it('admins are records of cms/backend/admins: created by the system, refused to an admin without the permission', async () => {
    const { local } = t.core;
    const data = { login: 'script', email: 'script@example.com', password: 'a long enough password' };
    expect(await refusal(local.create('cms/backend/admins', { data }, { as: editor.id }))).toMatchObject({ status: 403 });
    const created = await local.create('cms/backend/admins', { data }, { as: 'system' });
    const [row] = await t.sql<{ password_hash: string }>('select password_hash from cms_admins where id = ?', [created.data.id]);
    expect(row!.password_hash).toMatch(/^scrypt\$/);
  });
});
