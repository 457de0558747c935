import { describe, expect, it } from 'vitest';
import { BUILTIN_FIELD_TYPES } from '../../src/fields/index.ts';
import { checkError, checkMessage, decode, property, t } from './support.ts';

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
    expect(checkError(partial, {})).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.path' });
    expect(checkError(partial, { path: '../x' })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.path' });
    expect(checkMessage(partial, { path: 'stock_summary' })).toBeUndefined();
    expect(partial.schema!({ type: 'partial', path: 'stock_summary' }, { t, locale: 'en', locales: [] })).toEqual({
      path: 'stock_summary',
    });
  });

  it('widget needs action, a custom element tag and fill', () => {
    const ok = { action: 'suggestPrice', widget: 'acme-price-helper', fill: ['price'] };
    expect(checkMessage(widget, ok, { fields: { price: { type: 'money' }, helper: { type: 'widget' } } })).toBeUndefined();
    expect(checkError(widget, { ...ok, action: undefined })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.action' });
    for (const tag of ['pricehelper', 'Acme-Price', 'font-face', '1-x', undefined])
      expect(checkError(widget, { ...ok, widget: tag })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.widget' });
    expect(checkError(widget, { ...ok, fill: undefined })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.fill' });
    expect(checkError(widget, ok, { fields: { other: { type: 'text' } } })).toEqual({
      code: 'field_reference_unknown',
      key: 'form.fields.price.fill',
    });
    expect(widget.schema!({ type: 'widget', ...ok, actionLabel: 'backend::theme.dark' }, { t, locale: 'en', locales: [] })).toEqual({
      ...ok,
      actionLabel: 'Dark',
    });
  });

  it('relation-manager needs relation (a hasMany or belongsToMany)', () => {
    expect(checkError(manager, {})).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.relation' });
    expect(checkError(manager, { relation: 'comments' }, { property: property('int', { kind: 'm:1', name: 'author' }) })).toEqual({
      code: 'field_binding_invalid',
      key: 'form.fields.price.relation',
    });
    expect(
      checkMessage(manager, { relation: 'comments', deferrable: true }, { property: property('int', { kind: '1:m' }) }),
    ).toBeUndefined();
  });

  it('fileupload checks its options', () => {
    expect(
      checkMessage(fileupload, { mode: 'image', fileTypes: ['jpg', 'png'], maxFiles: 6, maxFilesize: 2, useCaption: true }),
    ).toBeUndefined();
    expect(checkError(fileupload, { mode: 'video' })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.mode' });
    expect(checkError(fileupload, { fileTypes: ['JPG'] })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.fileTypes' });
    expect(checkError(fileupload, { maxFiles: 0 })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.maxFiles' });
    expect(checkError(fileupload, { maxFilesize: -1 })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.maxFilesize' });
    // keepMetadata (docs/files.md, "Metadata"): a boolean, of image-mode fields only, and not served in the schema.
    expect(checkMessage(fileupload, { mode: 'image', keepMetadata: true })).toBeUndefined();
    expect(checkError(fileupload, { mode: 'image', keepMetadata: 'yes' as unknown as boolean })).toEqual({
      code: 'field_option_invalid',
      key: 'form.fields.price.keepMetadata',
    });
    expect(checkError(fileupload, { mode: 'file', keepMetadata: true })).toEqual({
      code: 'field_options_conflict',
      key: 'form.fields.price.keepMetadata',
    });
    expect(fileupload.schema!({ type: 'fileupload', mode: 'image', keepMetadata: true }, { t, locale: 'en', locales: [] })).toEqual({
      mode: 'image',
    });
    expect(fileupload.schema!({ type: 'fileupload', maxFiles: 6 }, { t, locale: 'en', locales: [] })).toEqual({
      mode: 'file',
      maxFiles: 6,
    });
  });
});
