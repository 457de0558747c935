import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_FIELD_TYPES, FieldError } from '../../src/fields/index.ts';
import { compareAbs } from '../../src/fields/decimal.ts';
import { checkError, checkMessage, decode, decodeContext, property } from './support.ts';

const taglist = BUILTIN_FIELD_TYPES.get('taglist')!;
const money = BUILTIN_FIELD_TYPES.get('money')!;

describe('taglist', () => {
  it('trims, drops empties and deduplicates case-sensitively, first wins', async () => {
    expect(await decode(taglist, [' b', 'a ', '', '  ', 'b', 'A', 'a'])).toEqual({ value: ['b', 'a', 'A'] });
    expect(await decode(taglist, null)).toEqual({ value: [] });
  });

  it('refuses non-arrays and non-string items with taglist.invalid', async () => {
    for (const value of ['a,b', 3, { a: 1 }, ['a', 1], ['a', null], [['a']]]) {
      expect(await decode(taglist, value)).toMatchObject({
        code: 'taglist.invalid',
        messageKey: 'backend::fields.taglist.invalid',
        status: 422,
      });
    }
  });

  it('string mode splits on the separator and stores the joined string', async () => {
    expect(await decode(taglist, 'a, b ,,a', { mode: 'string' })).toEqual({ value: 'a,b' });
    expect(await decode(taglist, ['x', ' y'], { mode: 'string', separator: 'space' })).toEqual({ value: 'x y' });
    expect(await decode(taglist, 'x;y; x', { mode: 'string', separator: ';' })).toEqual({ value: 'x;y' });
    expect(await decode(taglist, 5, { mode: 'string' })).toMatchObject({
      code: 'taglist.invalid',
      messageKey: 'backend::fields.taglist.invalid_string',
      params: { separator: ',' },
    });
  });

  it('customTags: false allows only offered tags', async () => {
    const field = { customTags: false, options: { red: 'Red', blue: 'Blue' } };
    expect(await decode(taglist, ['red'], field)).toEqual({ value: ['red'] });
    expect(await decode(taglist, ['red', 'green'], field)).toMatchObject({
      code: 'taglist.invalid',
      messageKey: 'backend::fields.taglist.not_offered',
      params: { tag: 'green' },
    });
  });

  it('required means at least one tag after cleaning', async () => {
    expect(await decode(taglist, ['  '], { required: true })).toMatchObject({ messageKey: 'backend::validation.required' });
  });

  it('encodes by mode', () => {
    expect(taglist.encode(['a'], { type: 'taglist' }, { locales: [] })).toEqual(['a']);
    expect(taglist.encode('["a","b"]', { type: 'taglist' }, { locales: [] })).toEqual(['a', 'b']);
    expect(taglist.encode(null, { type: 'taglist' }, { locales: [] })).toEqual([]);
    expect(taglist.encode('a,b', { type: 'taglist', mode: 'string' }, { locales: [] })).toBe('a,b');
  });

  it('checks mode, separator, customTags and the column', () => {
    expect(checkError(taglist, { mode: 'set' })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.mode' });
    expect(checkError(taglist, { customTags: false })).toEqual({ code: 'field_options_conflict', key: 'form.fields.price.customTags' });
    expect(checkError(taglist, {}, { property: property('varchar(255)') })).toEqual({
      code: 'field_column_mismatch',
      key: 'form.fields.price.mode',
    });
    expect(checkError(taglist, { mode: 'string' }, { property: property('jsonb') })).toEqual({
      code: 'field_column_mismatch',
      key: 'form.fields.price.mode',
    });
    expect(checkMessage(taglist, {}, { property: property('jsonb') })).toBeUndefined();
  });

  it('never throws anything but a FieldError', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.constantFrom('array', 'string'), async (value, mode) => {
        try {
          const out = await taglist.decode(value, { type: 'taglist', mode }, decodeContext());
          if (mode === 'array') expect(new Set(out as string[]).size).toBe((out as string[]).length);
        } catch (error) {
          expect(error).toBeInstanceOf(FieldError);
        }
      }),
    );
  });
});

describe('money', () => {
  const field = { currency: 'EUR', scale: 2, max: 1000000 };

  it('accepts decimal strings and returns them unchanged', async () => {
    for (const value of ['10.50', '10.5', '0', '007.10', '1000000.00']) expect(await decode(money, value, field)).toEqual({ value });
    // Negative amounts where the field allows them (`min: null`; test/fields/ranges.test.ts).
    for (const value of ['-3', '-1000000']) expect(await decode(money, value, { ...field, min: null })).toEqual({ value });
  });

  it('refuses numbers (floats lose precision) and malformed strings with money.invalid', async () => {
    for (const value of [10.5, 10, '1e3', '+1', '1.', '.5', '1,50', ' 1', 'NaN', true, ['1'], { amount: '1' }]) {
      expect(await decode(money, value, field)).toMatchObject({
        code: 'money.invalid',
        messageKey: 'backend::fields.money.invalid',
        status: 422,
      });
    }
  });

  it('refuses more fraction digits than scale with money.too_precise', async () => {
    expect(await decode(money, '1.005', field)).toMatchObject({
      code: 'money.too_precise',
      messageKey: 'backend::fields.money.too_precise',
      params: { count: 2 },
    });
    expect(await decode(money, '1.0050', { currency: 'EUR' })).toEqual({ value: '1.0050' }); // default scale 4
    expect(await decode(money, '1.00501', { currency: 'EUR' })).toMatchObject({ code: 'money.too_precise', params: { count: 4 } });
  });

  it('refuses an absolute value above max with money.too_large', async () => {
    expect(await decode(money, '1000000.01', field)).toMatchObject({
      code: 'money.too_large',
      messageKey: 'backend::fields.money.too_large',
      params: { max: '1000000' },
    });
    expect(await decode(money, '-1000001', { ...field, min: null })).toMatchObject({ code: 'money.too_large' });
    expect(await decode(money, '99999999999999999999999', { currency: 'EUR', max: '99999999999999999999998' })).toMatchObject({
      code: 'money.too_large',
    });
  });

  it('handles empty values', async () => {
    expect(await decode(money, null, field, { property: property('numeric', { nullable: true }) })).toEqual({ value: null });
    expect(await decode(money, '', field, { property: property('numeric') })).toMatchObject({ messageKey: 'backend::validation.required' });
    expect(await decode(money, undefined, { ...field, required: true })).toMatchObject({ messageKey: 'backend::validation.required' });
  });

  it('encodes the stored decimal string as is', () => {
    expect(money.encode('10.50', { type: 'money' }, { locales: [] })).toBe('10.50');
    expect(money.encode(null, { type: 'money' }, { locales: [] })).toBeNull();
  });

  it('compares decimals digit by digit', () => {
    expect(compareAbs('0010.5', '10.50')).toBe(0);
    expect(compareAbs('-9.99', '10')).toBe(-1);
    expect(compareAbs('100', '99.999')).toBe(1);
    expect(compareAbs('0.1', '0.09')).toBe(1);
  });

  it('start-up: exactly one of currency/currencyFrom, scale 2..4, max decimal, a numeric column', () => {
    expect(checkError(money, {})).toEqual({ code: 'field_options_conflict', key: 'form.fields.price.currency' });
    expect(checkError(money, { currency: 'EUR', currencyFrom: 'currency' })).toEqual({
      code: 'field_options_conflict',
      key: 'form.fields.price.currencyFrom',
    });
    expect(checkError(money, { currency: 'eur' })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.currency' });
    expect(checkError(money, { currencyFrom: 'currency' }, { fields: { price: { type: 'money' } } })).toEqual({
      code: 'field_reference_unknown',
      key: 'form.fields.price.currencyFrom',
    });
    expect(
      checkMessage(money, { currencyFrom: 'currency' }, { fields: { price: { type: 'money' }, currency: { type: 'dropdown' } } }),
    ).toBeUndefined();
    for (const scale of [1, 5, 2.5])
      expect(checkError(money, { currency: 'EUR', scale })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.scale' });
    for (const max of ['-1', '1e6', 'lots', Number.POSITIVE_INFINITY, 1e21])
      expect(checkError(money, { currency: 'EUR', max })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.max' });
    expect(checkMessage(money, { currency: 'EUR', max: '1000000' })).toBeUndefined();
    expect(checkError(money, { currency: 'EUR' }, { property: property('double precision', { name: 'price' }) })).toEqual({
      code: 'field_column_mismatch',
      key: 'form.fields.price',
    });
    expect(checkError(money, { currency: 'EUR' }, { property: property('numeric(10,0)', { runtimeType: 'number' }) })).toEqual({
      code: 'field_column_mismatch',
      key: 'form.fields.price',
    });
    expect(checkError(money, { currency: 'EUR' }, { property: property('numeric(12,2)') })).toEqual({
      code: 'field_column_mismatch',
      key: 'form.fields.price.scale',
    });
    expect(checkError(money, { currency: 'EUR', scale: 2, max: '1000000000000' }, { property: property('numeric(12,2)') })).toEqual({
      code: 'field_column_mismatch',
      key: 'form.fields.price.max',
    });
    expect(
      checkMessage(money, { currency: 'EUR', scale: 2, max: 1000000 }, { property: property('numeric(12,2)', { runtimeType: 'string' }) }),
    ).toBeUndefined();
    expect(checkMessage(money, { currency: 'EUR' }, { property: property('numeric', { runtimeType: 'string' }) })).toBeUndefined();
  });

  it('serves currency, scale, min and max', () => {
    expect(money.schema!({ type: 'money', currencyFrom: 'currency', max: 1000 }, { t: (k) => k, locale: 'en', locales: [] })).toEqual({
      scale: 4,
      currencyFrom: 'currency',
      min: '0',
      max: '1000',
    });
  });

  it('never throws anything but a FieldError, and what it accepts it returns unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.stringMatching(/^-?\d{1,12}(\.\d{1,6})?$/)), async (value) => {
        try {
          const out = await money.decode(value, { type: 'money', currency: 'EUR', max: '999999999' }, decodeContext());
          expect(out).toBe(value === '' ? null : value); // empty is "no amount"
        } catch (error) {
          expect(error).toBeInstanceOf(FieldError);
        }
      }),
    );
  });
});
