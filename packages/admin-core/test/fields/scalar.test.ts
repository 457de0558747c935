import { describe, expect, it } from 'vitest';
import { BUILTIN_FIELD_TYPES, isEmptyValue } from '../../src/fields/index.ts';
import { checkError, checkMessage, decode, property, t } from './support.ts';

const text = BUILTIN_FIELD_TYPES.get('text')!;
const textarea = BUILTIN_FIELD_TYPES.get('textarea')!;
const number = BUILTIN_FIELD_TYPES.get('number')!;
const dropdown = BUILTIN_FIELD_TYPES.get('dropdown')!;

const required = { code: 'validation_failed', messageKey: 'backend::validation.required' };

describe('isEmptyValue', () => {
  it.each([undefined, null, '', '   ', [], {}, { en: '', de: ' ' }])('%j is empty', (value) => expect(isEmptyValue(value)).toBe(true));
  it.each([0, false, 'a', [''], { en: 'x', de: '' }])('%j is not empty', (value) => expect(isEmptyValue(value)).toBe(false));
});

describe.each([text, textarea])('$name', (type) => {
  it('keeps a string exactly as sent (no trimming)', async () => {
    expect(await decode(type, '  Hello  ')).toEqual({ value: '  Hello  ' });
  });

  it.each([42, true, ['a'], { a: 1 }])('refuses %j with validation.string', async (value) => {
    expect(await decode(type, value)).toMatchObject({ code: 'validation_failed', messageKey: 'backend::validation.string', status: 422 });
  });

  it('enforces required on absent, null, empty and blank values', async () => {
    for (const value of [undefined, null, '', '  ']) expect(await decode(type, value, { required: true })).toMatchObject(required);
  });

  it('leaves an absent optional value alone and clears null to null or "" by column nullability', async () => {
    expect(await decode(type, undefined)).toEqual({ value: undefined });
    expect(await decode(type, null, {}, { property: property('varchar(255)', { nullable: true }) })).toEqual({ value: null });
    expect(await decode(type, null, {}, { property: property('varchar(255)') })).toEqual({ value: '' });
  });

  it('encodes strings and null', () => {
    expect(type.encode('x', { type: type.name }, { locales: [] })).toBe('x');
    expect(type.encode(null, { type: type.name }, { locales: [] })).toBeNull();
  });
});

describe('text preset schema', () => {
  it('serves the preset', () => {
    expect(text.schema!({ type: 'text', preset: { field: 'title', type: 'slug' } }, { t, locale: 'en', locales: ['en'] })).toEqual({
      preset: { field: 'title', type: 'slug' },
    });
  });
});

describe('number', () => {
  it.each([
    [12, 12],
    [-1.5, -1.5],
    ['42', 42],
    ['-0.25', -0.25],
    ['1e3', 1000],
  ])('accepts %j as %j', async (value, expected) => {
    expect(await decode(number, value)).toEqual({ value: expected });
  });

  it.each(['abc', ' 1', '1,5', '+1', '0x10', true, [], {}, 'Infinity'])('refuses %j with validation.number', async (value) => {
    expect(await decode(number, value)).toMatchObject({ code: 'validation_failed', messageKey: 'backend::validation.number' });
  });

  it('asks an integer column for a whole number', async () => {
    expect(await decode(number, 1.5, {}, { property: property('int') })).toMatchObject({ messageKey: 'backend::validation.integer' });
    expect(await decode(number, '7', {}, { property: property('int') })).toEqual({ value: 7 });
  });

  it('empties to null only when the column allows it', async () => {
    expect(await decode(number, '', {}, { property: property('int', { nullable: true }) })).toEqual({ value: null });
    expect(await decode(number, null, {}, { property: property('int') })).toMatchObject(required);
    expect(await decode(number, null, { required: true })).toMatchObject(required);
  });

  it('encodes numeric strings from PostgreSQL as numbers', () => {
    expect(number.encode('12.50', { type: 'number' }, { locales: [] })).toBe(12.5);
    expect(number.encode(null, { type: 'number' }, { locales: [] })).toBeNull();
  });

  it('refuses a non-numeric column at start-up', () => {
    expect(checkError(number, {}, { property: property('varchar(255)') })).toEqual({
      code: 'field_column_mismatch',
      key: 'form.fields.price',
    });
    expect(checkMessage(number, {}, { property: property('numeric(10,2)') })).toBeUndefined();
  });
});

describe('dropdown', () => {
  const options = { draft: 'Draft', published: 'acme.blog::lang.published', '3': 'Three' };

  it('accepts only offered keys; numbers match by their string form', async () => {
    expect(await decode(dropdown, 'draft', { options })).toEqual({ value: 'draft' });
    expect(await decode(dropdown, 3, { options })).toEqual({ value: 3 });
    for (const value of ['archived', 'Draft', 4, true, null, '', ['draft'], 'toString']) {
      expect(await decode(dropdown, value, { options })).toMatchObject({
        code: 'validation_failed',
        messageKey: 'backend::validation.one_of',
        params: { values: '3, draft, published' },
      });
    }
  });

  it('lets emptyOption mean no value', async () => {
    expect(await decode(dropdown, null, { options, emptyOption: 'None' }, { property: property('varchar', { nullable: true }) })).toEqual({
      value: null,
    });
    expect(await decode(dropdown, '', { options, emptyOption: 'None' }, { property: property('varchar') })).toEqual({ value: '' });
    expect(await decode(dropdown, null, { options, emptyOption: 'None', required: true })).toMatchObject(required);
    expect(await decode(dropdown, undefined, { options, required: true })).toMatchObject(required);
  });

  it('serves options as {label, value} with localized labels', () => {
    expect(
      dropdown.schema!(
        { type: 'dropdown', options: { a: 'backend::theme.dark' }, emptyOption: 'backend::theme.auto' },
        { t, locale: 'en', locales: ['en'] },
      ),
    ).toEqual({
      options: [{ label: 'Dark', value: 'a' }],
      emptyOption: 'Follow the system',
    });
  });

  it('refuses a dropdown without options, or a default outside them', () => {
    expect(checkError(dropdown, {})).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.options' });
    expect(checkError(dropdown, { options, default: 'gone' })).toEqual({
      code: 'field_options_conflict',
      key: 'form.fields.price.default',
    });
    expect(checkMessage(dropdown, { options, default: 'draft' })).toBeUndefined();
  });
});
