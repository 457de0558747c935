import { describe, expect, it } from 'vitest';
import { BUILTIN_FIELD_TYPES } from '../../src/fields/index.ts';
import { MIN_PASSWORD_LENGTH } from '../../src/auth/passwords.ts';
import { checkError, checkMessage, decode, property } from './support.ts';

const mltext = BUILTIN_FIELD_TYPES.get('mltext')!;
const password = BUILTIN_FIELD_TYPES.get('password')!;

describe('mltext', () => {
  it('stores a text for every served locale, missing ones as ""', async () => {
    expect(await decode(mltext, { en: 'Hello' })).toEqual({ value: { en: 'Hello', de: '' } });
    expect(await decode(mltext, { de: 'Hallo', en: ' Hi ' })).toEqual({ value: { en: ' Hi ', de: 'Hallo' } });
    expect(await decode(mltext, null)).toEqual({ value: { en: '', de: '' } });
  });

  it('refuses unknown locales, non-string texts and non-objects', async () => {
    expect(await decode(mltext, { en: 'x', fr: 'y' })).toMatchObject({
      code: 'validation_failed',
      messageKey: 'backend::fields.mltext.unknown_locale',
      params: { locale: 'fr' },
    });
    expect(await decode(mltext, { en: 3 })).toMatchObject({ messageKey: 'backend::validation.string' });
    for (const value of ['Hello', ['x'], 1])
      expect(await decode(mltext, value)).toMatchObject({ messageKey: 'backend::validation.object' });
  });

  it('requires the fallback locale when required', async () => {
    expect(await decode(mltext, { de: 'Hallo' }, { required: true })).toMatchObject({ messageKey: 'backend::validation.required' });
    expect(await decode(mltext, undefined, { required: true })).toMatchObject({ messageKey: 'backend::validation.required' });
    expect(await decode(mltext, { en: 'Hi' }, { required: true })).toEqual({ value: { en: 'Hi', de: '' } });
  });

  it('encodes every served locale, from an object, json text or a plain string', () => {
    const ctx = { locales: ['en', 'de'] };
    expect(mltext.encode({ en: 'a', fr: 'x' }, { type: 'mltext' }, ctx)).toEqual({ en: 'a', de: '' });
    expect(mltext.encode('{"de":"b"}', { type: 'mltext' }, ctx)).toEqual({ en: '', de: 'b' });
    expect(mltext.encode('legacy', { type: 'mltext' }, ctx)).toEqual({ en: 'legacy', de: '' });
    expect(mltext.encode(null, { type: 'mltext' }, ctx)).toEqual({ en: '', de: '' });
  });

  it('must be stored in a json column', () => {
    expect(checkError(mltext, {}, { property: property('varchar(255)') })).toEqual({
      code: 'field_column_mismatch',
      key: 'form.fields.price',
    });
    expect(checkMessage(mltext, {}, { property: property('jsonb') })).toBeUndefined();
  });
});

describe('password', () => {
  it('accepts a string of at least MIN_PASSWORD_LENGTH characters', async () => {
    expect(await decode(password, 'correct horse')).toEqual({ value: 'correct horse' });
    expect(await decode(password, 'short')).toMatchObject({
      code: 'validation_failed',
      messageKey: 'backend::validation.min_length',
      params: { count: MIN_PASSWORD_LENGTH },
    });
    expect(await decode(password, 12345678)).toMatchObject({ messageKey: 'backend::validation.string' });
  });

  it('keeps the stored password when empty or absent on update', async () => {
    for (const value of [undefined, '', null])
      expect(await decode(password, value, { required: true }, { mode: 'update' })).toEqual({ value: undefined });
  });

  it('is required on create only when the field says so', async () => {
    expect(await decode(password, '', { required: true }, { mode: 'create' })).toMatchObject({
      messageKey: 'backend::validation.required',
    });
    expect(await decode(password, undefined, {}, { mode: 'create' })).toEqual({ value: undefined });
  });

  it('is never encoded and never stored', () => {
    expect(password.storage).toBe('virtual');
    expect(password.encode('secret', { type: 'password' }, { locales: [] })).toBeUndefined();
  });

  it('fails start-up unless virtual, naming plugin, controller and field', () => {
    const message = checkMessage(password, {}, { field: 'password', controller: 'cms/backend/admins', plugin: 'cms.backend' });
    expect(message).toContain('plugin "cms.backend"');
    expect(message).toContain('controller "cms/backend/admins"');
    expect(message).toContain('form.fields.password.virtual');
    expect(message).toContain('virtual: true');
    expect(checkMessage(password, { virtual: true })).toBeUndefined();
    expect(checkError(password, { virtual: true, default: 'x' })).toEqual({
      code: 'field_option_invalid',
      key: 'form.fields.price.default',
    });
  });
});
