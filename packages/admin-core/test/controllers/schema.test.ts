import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { POSTS, PRODUCTS, pressPlugin } from '../fixtures/press.ts';
import { SECTIONS, treePlugin } from '../fixtures/tree.ts';
import { ADMINS, ROLES, signIn, type Client } from '../../../../test/support/client.ts';

const FORM_MESSAGES = ['create', 'deleteConfirm', 'deleted', 'edit', 'preview', 'saved', 'update'];
const LIST_MESSAGES = [
  'create',
  'deleteConfirm',
  'deleteSelected',
  'deleted',
  'empty',
  'emptySearch',
  'emptySearchHint',
  'recordCount',
  'rowStateDeleted',
  'rowStateDisabled',
  'rowStateNegative',
  'searchPrompt',
  'selected',
];
const LIST_REQUIRED = [
  'assets',
  'bulkActions',
  'columns',
  'filters',
  'messages',
  'perPageOptions',
  'recordsPerPage',
  'rowActions',
  'searchTerm',
  'showCheckboxes',
  'showSearch',
  'showSetup',
  'showSorting',
  'toolbarActions',
  'toolbarButtons',
];
const LIST_OPTIONAL = [
  'defaultSort',
  'headerPartial',
  'meta',
  'modelClass',
  'noRecordsMessage',
  'recordUrl',
  'searchPrompt',
  'title',
  'reorder',
];
const FORM_FIELD_KEYS = new Set([
  'name',
  'type',
  'label',
  'comment',
  'tab',
  'span',
  'size',
  'required',
  'readOnly',
  'multiple',
  'context',
  'default',
  'attributes',
  'options',
  'emptyOption',
  'nameFrom',
  'relation',
  'preset',
  'action',
  'actionLabel',
  'widget',
  'fill',
  'path',
  'deferrable',
  'fileTypes',
  'mimeTypes',
  'maxFiles',
  'maxFilesize',
  'imageWidth',
  'imageHeight',
  'mode',
  'prompt',
  'protected',
  'useCaption',
  'thumbOptions',
  'format',
  'displayFormat',
  'minDate',
  'maxDate',
  'firstDay',
  'yearRange',
  'ignoreTimezone',
  'twelveHour',
  'separator',
  'customTags',
  'typeOptions',
  'element',
  'translatable',
  // Type-specific extras served by built-in types: money, number and permissioneditor.
  'currency',
  'currencyFrom',
  'scale',
  'min',
  'max',
  'step',
  'permissionTabs',
]);

/** Plural forms: an object of CLDR categories to strings, `other` always present. */
function expectForms(value: unknown) {
  expect(value).toEqual(expect.objectContaining({ other: expect.any(String) }));
  for (const [category, text] of Object.entries(value as object)) {
    expect(['zero', 'one', 'two', 'few', 'many', 'other']).toContain(category);
    expect(typeof text).toBe('string');
    expect(text).not.toMatch(/::/);
  }
}

function expectFormView(view: Record<string, any>, locale: string) {
  for (const key of ['fields', 'assets', 'messages', 'meta', 'redirects']) expect(view).toHaveProperty(key);
  expect(view.assets).toEqual({ scripts: expect.any(Array), styles: expect.any(Array) });
  expect(Object.keys(view.messages).sort()).toEqual([...FORM_MESSAGES].sort());
  for (const forms of Object.values(view.messages)) expectForms(forms);
  expect(view.meta).toEqual({ locale });
  expect(view.redirects).toEqual({
    create: { redirect: expect.any(String), redirectClose: expect.any(String) },
    update: { redirect: expect.any(String), redirectClose: expect.any(String) },
    default: expect.any(String),
  });
  for (const field of view.fields) {
    expect(typeof field.name).toBe('string');
    expect(typeof field.type).toBe('string');
    for (const key of Object.keys(field)) expect(FORM_FIELD_KEYS.has(key), `${field.name}.${key}`).toBe(true);
    for (const key of ['label', 'comment', 'tab', 'emptyOption', 'prompt', 'actionLabel'])
      if (key in field) expect(field[key]).not.toMatch(/::/);
    if (field.default !== undefined) expect(['string', 'number', 'boolean', 'object']).toContain(typeof field.default);
  }
}

function expectListSchema(schema: Record<string, any>, locale: string) {
  for (const key of LIST_REQUIRED) expect(schema, key).toHaveProperty(key);
  for (const key of Object.keys(schema)) expect([...LIST_REQUIRED, ...LIST_OPTIONAL]).toContain(key);
  expect(Object.keys(schema.messages).sort()).toEqual([...LIST_MESSAGES].sort());
  for (const forms of Object.values(schema.messages)) expectForms(forms);
  expect(schema.perPageOptions.every(Number.isInteger)).toBe(true);
  expect(schema.perPageOptions).toContain(schema.recordsPerPage);
  expect(schema.searchTerm).toBe('');
  for (const flag of ['showCheckboxes', 'showSearch', 'showSetup', 'showSorting']) expect(typeof schema[flag]).toBe('boolean');
  expect(schema.meta).toEqual({ locale });
  for (const column of schema.columns) {
    expect(column).toEqual(
      expect.objectContaining({
        key: expect.any(String),
        label: expect.any(String),
        searchable: expect.any(Boolean),
        sortable: expect.any(Boolean),
      }),
    );
    expect(column.label).not.toMatch(/::/);
  }
  for (const filter of schema.filters) {
    expect(filter).toEqual(expect.objectContaining({ name: expect.any(String), type: expect.any(String) }));
    for (const option of filter.options ?? []) expect(option).toEqual({ label: expect.any(String), value: expect.anything() });
  }
  if (schema.defaultSort) expect(Object.keys(schema.defaultSort).sort()).toEqual(['column', 'direction']);
}

describe('schema/form and schema/list', () => {
  let t: TestAdmin;
  let su: Client;

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [pressPlugin, treePlugin] });
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  it.each([POSTS, SECTIONS, PRODUCTS, ADMINS, ROLES])('%s serves a complete FormView and ListSchema in en and de', async (ctl) => {
    for (const locale of ['en', 'de']) {
      const form = await su.locale(locale).get(`${ctl}/schema/form`);
      expect(form.status).toBe(200);
      expect(Object.keys(form.body).sort()).toEqual(['data', 'meta']);
      expectFormView(form.body.data, locale);
      const list = await su.locale(locale).get(`${ctl}/schema/list`);
      expect(list.status).toBe(200);
      expectListSchema(list.body.data, locale);
    }
  });

  it('localizes labels, options and plural-form messages (Accept-Language de)', async () => {
    const en = (await su.get(`${POSTS}/schema/list`)).body.data;
    const de = (await su.locale('de').get(`${POSTS}/schema/list`)).body.data;
    expect(en.title).toBe('Posts');
    expect(de.title).not.toBe(en.title);
    expect(de.messages.recordCount).toEqual({ one: '{count} Datensatz', other: '{count} Datensätze' });
    expect(en.messages.recordCount).toEqual({ one: '{count} record', other: '{count} records' });
    expect(de.messages.deleteConfirm.one).toBe('Den gewählten Datensatz löschen?');
    const status = (schema: { filters: Array<{ name: string; options: Array<{ label: string }> }> }) =>
      schema.filters.find((f) => f.name === 'status')!.options.map((o) => o.label);
    expect(status(en)).toEqual(['Draft', 'Published', 'Archived']);
    expect(status(de)).not.toEqual(status(en));
    const formDe = (await su.locale('de').get(`${POSTS}/schema/form`)).body.data;
    const formEn = (await su.get(`${POSTS}/schema/form`)).body.data;
    expect(formDe.messages.saved).toEqual({ other: 'Gespeichert.' });
    const labels = (view: { fields: Array<{ name: string; label?: string }> }) =>
      Object.fromEntries(view.fields.map((f) => [f.name, f.label]));
    expect(labels(formEn)).toMatchObject({ title: 'Title', slug: 'Slug', categories: 'Categories', author: 'Author' });
    expect(labels(formDe)).toMatchObject({ title: 'Titel', slug: 'Kurzname', categories: 'Kategorien', author: 'Autor' });
    // An unsupported language falls back to en.
    expect((await su.locale('fr').get(`${POSTS}/schema/form`)).body.data.meta).toEqual({ locale: 'en' });
  });

  it('posts: fields in declared order with the keys of their types', async () => {
    const view = (await su.get(`${POSTS}/schema/form`)).body.data;
    expect(view.fields.map((f: { name: string }) => f.name)).toEqual([
      'title',
      'slug',
      'excerpt',
      'content',
      'status',
      'published_at',
      'tags',
      'categories',
      'author',
      'cover_image',
      'gallery',
      'comments',
      'preview',
    ]);
    const byName = Object.fromEntries(view.fields.map((f: { name: string }) => [f.name, f]));
    expect(byName.slug).toMatchObject({ type: 'text', required: true, preset: { field: 'title', type: 'slug' } });
    expect(byName.status).toMatchObject({
      type: 'dropdown',
      default: 'draft',
      options: [
        { label: 'Draft', value: 'draft' },
        { label: 'Published', value: 'published' },
        { label: 'Archived', value: 'archived' },
      ],
    });
    expect(byName.categories).toMatchObject({ type: 'relation', multiple: true, nameFrom: 'name' });
    expect(byName.author).toMatchObject({ type: 'relation', multiple: false, emptyOption: expect.any(String) });
    expect(byName.gallery).toMatchObject({ type: 'fileupload', mode: 'image', maxFiles: 6, useCaption: true });
    // Manageable before the first save too (a nullable key: deferrable), so on create and update alike.
    expect(byName.comments).toMatchObject({ type: 'relation-manager', relation: 'comments', deferrable: true, label: 'Comments' });
    expect(byName.comments).not.toHaveProperty('context');
    expect(byName.preview).toMatchObject({ type: 'partial', path: 'preview', context: ['update', 'preview'] });
    expect(view.redirects).toEqual({
      create: { redirect: 'test/press/posts/update/:id', redirectClose: 'test/press/posts' },
      update: { redirect: 'test/press/posts/update/:id', redirectClose: 'test/press/posts' },
      default: 'test/press/posts',
    });
    const list = (await su.get(`${POSTS}/schema/list`)).body.data;
    expect(list.defaultSort).toEqual({ column: 'published_at', direction: 'desc' });
    expect(list.perPageOptions).toEqual([20, 50, 100]);
    expect(list.recordsPerPage).toBe(20);
    expect(list.columns.find((c: { key: string }) => c.key === 'author')).toEqual({
      key: 'author',
      label: 'Author',
      searchable: false,
      sortable: false,
      relation: 'author',
      select: 'login',
    });
    expect(list.filters.find((f: { name: string }) => f.name === 'category')).toMatchObject({
      type: 'scope',
      scope: 'category',
      nameFrom: 'name',
    });
  });

  it('products: money, date and taglist keys', async () => {
    const view = (await su.get(`${PRODUCTS}/schema/form`)).body.data;
    const byName = Object.fromEntries(view.fields.map((f: { name: string }) => [f.name, f]));
    expect(byName.price).toMatchObject({ type: 'money', currency: 'EUR', scale: 2, max: '1000000' });
    expect(byName.cost).toMatchObject({ type: 'money', currencyFrom: 'currency', scale: 4 });
    expect(byName.release_date).toMatchObject({ type: 'datepicker', mode: 'date', minDate: '2000-01-01' });
    expect(byName.features).toMatchObject({ type: 'taglist', mode: 'array' });
    // belongsToMany: always deferrable (docs/relations.md).
    expect(byName.accessories).toMatchObject({ type: 'relation-manager', relation: 'accessories', deferrable: true });
    expect(byName.accessories).not.toHaveProperty('context');
    const list = (await su.get(`${PRODUCTS}/schema/list`)).body.data;
    expect(list.columns.find((c: { key: string }) => c.key === 'price')).toMatchObject({ type: 'money', currency: 'EUR' });
  });

  it('admins: the permission editor marks codes the asking admin may not change as locked', async () => {
    const tabs = async (client: Client) => {
      const view = (await client.get(`${ADMINS}/schema/form`)).body.data;
      const field = view.fields.find((f: { name: string }) => f.name === 'permissions');
      expect(field).toMatchObject({ type: 'permissioneditor', mode: 'radio' });
      return Object.fromEntries(
        field.permissionTabs.flatMap((tab: { permissions: Array<{ code: string; locked?: boolean }> }) =>
          tab.permissions.map((p) => [p.code, p.locked ?? false]),
        ),
      );
    };
    expect(Object.values(await tabs(su)).every((locked) => locked === false)).toBe(true);
    const manager = await signIn(t, { permissions: { 'cms.backend.manage_admins': 1, 'test.press.posts': 1 } });
    expect(await tabs(manager)).toMatchObject({
      'cms.backend.manage_admins': false,
      'test.press.posts': false,
      'test.press.publish': true,
      'test.press.products': true,
    });
    // The password field is served (write-only), never a value for it.
    const view = (await su.get(`${ADMINS}/schema/form`)).body.data;
    expect(view.fields.find((f: { name: string }) => f.name === 'password')).toMatchObject({ type: 'password' });
    expect(view.fields.find((f: { name: string }) => f.name === 'password')).not.toHaveProperty('default');
  });

  it('schema routes take no query parameters', async () => {
    const res = await su.get(`${POSTS}/schema/form`, { locale: 'de' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error.details)).toEqual(['locale']);
  });
});
