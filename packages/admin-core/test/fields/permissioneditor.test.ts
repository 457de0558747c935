import { describe, expect, it } from 'vitest';
import { BUILTIN_FIELD_TYPES, isLockedFor, permissionTabs } from '../../src/fields/index.ts';
import { checkError, checkMessage, decode, permissionDefinitions, principal, property, t } from './support.ts';

const editor = BUILTIN_FIELD_TYPES.get('permissioneditor')!;

const permissions = permissionDefinitions([
  { code: 'blog.posts', label: 'Manage posts', tab: 'Blog', order: 2 },
  { code: 'blog.publish', label: 'Publish posts', tab: 'Blog', order: 1 },
  { code: 'backend.admins', label: 'backend::permissions.manage_admins', tab: 'backend::permissions.tab_system' },
  { code: 'misc.thing', label: 'Thing' },
]);
const editorAdmin = principal({ role: { 'blog.posts': 1, 'backend.admins': 1 } });
const superuser = principal({ superuser: true });

describe('permissioneditor decode', () => {
  it('radio (default) takes 1 and -1; absent offered codes are unset', async () => {
    expect(await decode(editor, { 'blog.posts': 1, 'misc.thing': -1 }, {}, { permissions, principal: superuser })).toEqual({
      value: { 'blog.posts': 1, 'misc.thing': -1 },
    });
  });

  it('checkbox takes 1 only', async () => {
    expect(await decode(editor, { 'blog.posts': 1 }, { mode: 'checkbox' }, { permissions, principal: superuser })).toEqual({
      value: { 'blog.posts': 1 },
    });
    expect(await decode(editor, { 'blog.posts': -1 }, { mode: 'checkbox' }, { permissions, principal: superuser })).toMatchObject({
      code: 'validation_failed',
      messageKey: 'backend::fields.permissions.value',
      params: { code: 'blog.posts', values: '1' },
      status: 422,
    });
  });

  it('422 for a non-object, an unknown code or a value outside the set', async () => {
    for (const value of [null, [], 'blog.posts', 1])
      expect(await decode(editor, value, {}, { permissions, principal: superuser })).toMatchObject({
        messageKey: 'backend::validation.object',
        status: 422,
      });
    expect(await decode(editor, { 'nope.x': 1 }, {}, { permissions, principal: superuser })).toMatchObject({
      messageKey: 'backend::fields.permissions.unknown',
      params: { code: 'nope.x' },
    });
    for (const v of [0, 2, '1', true, null]) {
      expect(await decode(editor, { 'blog.posts': v }, {}, { permissions, principal: superuser })).toMatchObject({
        messageKey: 'backend::fields.permissions.value',
        params: { values: '1, -1' },
      });
    }
  });

  it('only offers `permissions` when the field lists them', async () => {
    expect(await decode(editor, { 'misc.thing': 1 }, { permissions: ['blog.posts'] }, { permissions, principal: superuser })).toMatchObject(
      { messageKey: 'backend::fields.permissions.unknown' },
    );
  });

  it('keeps stored codes that are not offered, and accepts them sent back unchanged', async () => {
    const current = { 'gone.plugin': 1, 'misc.thing': 1, 'blog.posts': 1 };
    const field = { permissions: ['blog.posts', 'blog.publish'] };
    expect(await decode(editor, { 'blog.publish': 1 }, field, { permissions, principal: superuser, current, mode: 'update' })).toEqual({
      value: { 'gone.plugin': 1, 'misc.thing': 1, 'blog.publish': 1 },
    });
    expect(
      await decode(editor, { 'gone.plugin': 1, 'blog.posts': 1 }, field, {
        permissions,
        principal: superuser,
        current: JSON.stringify(current),
        mode: 'update',
      }),
    ).toEqual({
      value: { 'gone.plugin': 1, 'misc.thing': 1, 'blog.posts': 1 },
    });
    expect(
      await decode(editor, { 'gone.plugin': -1 }, field, { permissions, principal: superuser, current, mode: 'update' }),
    ).toMatchObject({ messageKey: 'backend::fields.permissions.unknown' });
  });

  it('403 when a non-superuser grants, denies or clears a permission they lack', async () => {
    const locked = { code: 'forbidden', messageKey: 'backend::fields.permissions.locked', params: { code: 'blog.publish' }, status: 403 };
    expect(await decode(editor, { 'blog.publish': 1 }, {}, { permissions, principal: editorAdmin })).toMatchObject(locked);
    expect(await decode(editor, { 'blog.publish': -1 }, {}, { permissions, principal: editorAdmin })).toMatchObject(locked);
    expect(
      await decode(editor, {}, {}, { permissions, principal: editorAdmin, current: { 'blog.publish': 1 }, mode: 'update' }),
    ).toMatchObject(locked);
  });

  it('lets the same admin change what they hold, and keep locked codes as they are', async () => {
    const current = { 'blog.publish': -1 };
    expect(
      await decode(
        editor,
        { 'blog.publish': -1, 'blog.posts': 1, 'backend.admins': -1 },
        {},
        { permissions, principal: editorAdmin, current, mode: 'update' },
      ),
    ).toEqual({
      value: { 'blog.publish': -1, 'blog.posts': 1, 'backend.admins': -1 },
    });
  });

  it('a per-admin deny locks a code the role grants', () => {
    const denied = principal({ role: { 'blog.posts': 1 }, own: { 'blog.posts': -1 } });
    expect(isLockedFor(denied, 'blog.posts')).toBe(true);
    expect(isLockedFor(editorAdmin, 'blog.posts')).toBe(false);
    expect(isLockedFor(superuser, 'anything')).toBe(false);
    expect(isLockedFor(undefined, 'blog.posts')).toBe(true);
  });

  it('reports a malformed body (422) before a locked change (403)', async () => {
    expect(await decode(editor, { 'blog.publish': 1, 'blog.posts': 5 }, {}, { permissions, principal: editorAdmin })).toMatchObject({
      status: 422,
    });
  });
});

describe('permissioneditor schema, encode and check', () => {
  it('serves the offered permissions grouped by localized tab, with locked flags and mode', () => {
    expect(
      editor.schema!(
        { type: 'permissioneditor', mode: 'checkbox' },
        { t, locale: 'en', locales: ['en'], permissions, principal: editorAdmin },
      ),
    ).toEqual({
      mode: 'checkbox',
      permissionTabs: [
        { label: 'System', permissions: [{ code: 'backend.admins', label: 'Manage administrators and roles' }] },
        { label: 'Other', permissions: [{ code: 'misc.thing', label: 'Thing', locked: true }] },
        {
          label: 'Blog',
          permissions: [
            { code: 'blog.publish', label: 'Publish posts', locked: true },
            { code: 'blog.posts', label: 'Manage posts' },
          ],
        },
      ],
    });
    expect(
      permissionTabs({ type: 'permissioneditor', permissions: ['blog.posts'] }, { t, locale: 'en', locales: ['en'], permissions }),
    ).toEqual([{ label: 'Blog', permissions: [{ code: 'blog.posts', label: 'Manage posts' }] }]);
  });

  it('encodes the stored map', () => {
    expect(editor.encode('{"a":1,"b":"x"}', { type: 'permissioneditor' }, { locales: [] })).toEqual({ a: 1 });
    expect(editor.encode(null, { type: 'permissioneditor' }, { locales: [] })).toEqual({});
  });

  it('refuses unknown modes, unregistered permissions, defaults and non-json columns', () => {
    expect(checkError(editor, { mode: 'toggle' })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.mode' });
    expect(checkError(editor, { permissions: ['nope.x'] })).toEqual({ code: 'permission_unknown', key: 'form.fields.price.permissions' });
    expect(checkError(editor, { default: 'x' })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.default' });
    expect(checkError(editor, {}, { property: property('text') })).toEqual({ code: 'field_column_mismatch', key: 'form.fields.price' });
    expect(
      checkMessage(editor, { mode: 'checkbox', permissions: ['acme.catalog.manage'] }, { property: property('jsonb') }),
    ).toBeUndefined();
  });
});
