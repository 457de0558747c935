import { defineEntity, p } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { AdminCore } from '../../src/adapter.ts';
import { defineController, definePlugin } from '../../src/index.ts';
import { BUILTIN_FIELD_TYPES } from '../../src/fields/index.ts';
import { assertConfigError } from '../support/config-error.ts';
import { checkError, checkMessage, t } from './support.ts';

/*
 * The markdown field's `uploadRoute` (docs/field-types.md, "richeditor and markdown"): where the
 * editor uploads images, a path on the admin's own origin, checked at start-up and served in the
 * FormField as written.
 */
const markdown = BUILTIN_FIELD_TYPES.get('markdown')!;

describe('markdown uploadRoute', () => {
  it('accepts a path on this origin', () => {
    for (const uploadRoute of ['/_journal/api/v1/media/upload', '/backend/api/v1/acme/media', '/upload', '/a:b/c@d/%20e'])
      expect(checkError(markdown, { uploadRoute }), uploadRoute).toBeUndefined();
    expect(checkError(markdown, {})).toBeUndefined();
  });

  it('refuses anything else at start-up, naming the key and the fix', () => {
    for (const uploadRoute of [
      '',
      'upload',
      'https://cdn.example.com/upload',
      'javascript:alert(1)',
      '//evil.example/upload',
      '/\\evil.example/upload',
      '/a/../upload',
      '/a/./upload',
      '/upload?x=1',
      '/upload#x',
      '/up load',
      '/up\tload',
      '/up\\load',
      `/${'a'.repeat(512)}`,
      3,
      ['/upload'],
      null,
    ]) {
      expect(checkError(markdown, { uploadRoute: uploadRoute as string }), JSON.stringify(uploadRoute)).toEqual({
        code: 'field_option_invalid',
        key: 'form.fields.price.uploadRoute',
      });
    }
    const message = checkMessage(markdown, { uploadRoute: 'https://cdn.example.com/upload' })!;
    expect(message).toContain('acme.catalog');
    expect(message).toContain('acme/catalog/products');
    expect(message).toContain('form.fields.price.uploadRoute');
    expect(message).toContain('/_journal/api/v1/media/upload');
  });

  it('keeps the checks of maxBytes', () => {
    expect(checkError(markdown, { maxBytes: 0 })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.maxBytes' });
  });

  it('is served in the FormField as written, and only when set', () => {
    const ctx = { t, locale: 'en', locales: ['en', 'de'] };
    expect(markdown.schema?.({ type: 'markdown', uploadRoute: '/_journal/api/v1/media/upload' }, ctx)).toEqual({
      uploadRoute: '/_journal/api/v1/media/upload',
    });
    expect(markdown.schema?.({ type: 'markdown' }, ctx)).toEqual({});
  });

  it('is a start-up error of the admin, naming plugin, controller and field', async () => {
    const Note = defineEntity({
      name: 'UploadRouteNote',
      tableName: 'upload_route_notes',
      properties: { id: p.integer().primary(), body: p.text().nullable() },
    });
    const plugin = definePlugin({
      vendor: 'test',
      name: 'uploads',
      permissions: [{ code: 'test.uploads.use', label: 'Use' }],
      entities: [Note],
      controllers: [
        defineController({
          name: 'notes',
          entity: Note,
          list: { columns: { body: { label: 'Body' } } },
          form: { fields: { body: { type: 'markdown', label: 'Body', uploadRoute: '//evil.example/upload' } } },
        }),
      ],
    });
    let error: unknown;
    try {
      const core = await AdminCore.create({
        secret: 'x'.repeat(40),
        database: { url: 'postgres://postgres@127.0.0.1:1/none' },
        logger: { info() {}, warn() {}, error() {} },
        plugins: [plugin],
      });
      await core.close();
    } catch (caught) {
      error = caught;
    }
    assertConfigError(error, 'field_option_invalid', {
      plugin: 'test.uploads',
      controller: 'test/uploads/notes',
      key: 'form.fields.body.uploadRoute',
    });
  });
});
