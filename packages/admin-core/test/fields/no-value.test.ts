import { describe, expect, it } from 'vitest';
import { BUILTIN_FIELD_TYPES } from '../../src/fields/index.ts';
import { checkMessage, decode, property, t } from './support.ts';

const partial = BUILTIN_FIELD_TYPES.get('partial')!;
const widget = BUILTIN_FIELD_TYPES.get('widget')!;
const manager = BUILTIN_FIELD_TYPES.get('relation-manager')!;
const fileupload = BUILTIN_FIELD_TYPES.get('fileupload')!;

describe.each([partial, widget, manager, fileupload])('$name', (type) => {
  it('has no value: storage none, a sent value is an unknown key', async () => {
    expect(type.storage).toBe('none');
    expect(await decode(type, 'x')).toMatchObject({
      code: 'validation_failed',
      messageKey: 'backend::validation.unknown_key',
      status: 422,
    });
    expect(type.encode('x', { type: type.name }, { locales: [] })).toBeUndefined();
  });
});

describe('no-value checks', () => {
  it('partial needs a path', () => {
    expect(checkMessage(partial, {})).toMatch(/form\.fields\.price\.path.*needs `path`/);
    expect(checkMessage(partial, { path: '../x' })).toMatch(/not a partial name/);
    expect(checkMessage(partial, { path: 'stock_summary' })).toBeUndefined();
    expect(partial.schema!({ type: 'partial', path: 'stock_summary' }, { t, locale: 'en', locales: [] })).toEqual({
      path: 'stock_summary',
    });
  });

  it('widget needs action, a custom element tag and fill', () => {
    const ok = { action: 'suggestPrice', widget: 'acme-price-helper', fill: ['price'] };
    expect(checkMessage(widget, ok, { fields: { price: { type: 'money' }, helper: { type: 'widget' } } })).toBeUndefined();
    expect(checkMessage(widget, { ...ok, action: undefined })).toMatch(/form\.fields\.price\.action.*needs `action`/);
    for (const tag of ['pricehelper', 'Acme-Price', 'font-face', '1-x', undefined])
      expect(checkMessage(widget, { ...ok, widget: tag })).toMatch(/form\.fields\.price\.widget.*custom element/);
    expect(checkMessage(widget, { ...ok, fill: undefined })).toMatch(/form\.fields\.price\.fill.*needs `fill`/);
    expect(checkMessage(widget, ok, { fields: { other: { type: 'text' } } })).toMatch(/no field "price"/);
    expect(widget.schema!({ type: 'widget', ...ok, actionLabel: 'backend::theme.dark' }, { t, locale: 'en', locales: [] })).toEqual({
      ...ok,
      actionLabel: 'Dark',
    });
  });

  it('relation-manager needs relation (a hasMany or belongsToMany)', () => {
    expect(checkMessage(manager, {})).toMatch(/form\.fields\.price\.relation.*needs `relation`/);
    expect(checkMessage(manager, { relation: 'comments' }, { property: property('int', { kind: 'm:1', name: 'author' }) })).toMatch(
      /"author" is not a hasMany/,
    );
    expect(
      checkMessage(manager, { relation: 'comments', deferrable: true }, { property: property('int', { kind: '1:m' }) }),
    ).toBeUndefined();
  });

  it('fileupload checks its options', () => {
    expect(
      checkMessage(fileupload, { mode: 'image', fileTypes: ['jpg', 'png'], maxFiles: 6, maxFilesize: 2, useCaption: true }),
    ).toBeUndefined();
    expect(checkMessage(fileupload, { mode: 'video' })).toMatch(/form\.fields\.price\.mode/);
    expect(checkMessage(fileupload, { fileTypes: ['JPG'] })).toMatch(/lower-case extension/);
    expect(checkMessage(fileupload, { maxFiles: 0 })).toMatch(/maxFiles/);
    expect(checkMessage(fileupload, { maxFilesize: -1 })).toMatch(/maxFilesize/);
    // keepMetadata (docs/files.md, "Metadata"): a boolean, of image-mode fields only, and not served in the schema.
    expect(checkMessage(fileupload, { mode: 'image', keepMetadata: true })).toBeUndefined();
    expect(checkMessage(fileupload, { mode: 'image', keepMetadata: 'yes' as unknown as boolean })).toMatch(
      /form\.fields\.price\.keepMetadata/,
    );
    expect(checkMessage(fileupload, { mode: 'file', keepMetadata: true })).toMatch(/keepMetadata.*metadata is removed from images only/);
    expect(fileupload.schema!({ type: 'fileupload', mode: 'image', keepMetadata: true }, { t, locale: 'en', locales: [] })).toEqual({
      mode: 'image',
    });
    expect(fileupload.schema!({ type: 'fileupload', maxFiles: 6 }, { t, locale: 'en', locales: [] })).toEqual({
      mode: 'file',
      maxFiles: 6,
    });
  });
});
