import { describe, expect, it } from 'vitest';
import { BUILTIN_FIELD_TYPES } from '../../src/fields/index.ts';
import { compareDecimal } from '../../src/fields/decimal.ts';
import { checkError, checkMessage, decode, property, t } from './support.ts';

/*
 * Declared ranges (issue 9, point 18; docs/field-types.md, "number" and "money"): `number` has
 * `min`, `max` and `step`, `money` a `min` that is "0" unless the field says otherwise.
 */
const number = BUILTIN_FIELD_TYPES.get('number')!;
const money = BUILTIN_FIELD_TYPES.get('money')!;
const schemaOf = (type: typeof number, field: Record<string, unknown>) =>
  type.schema?.({ type: type.name, ...field } as never, { t, locale: 'en', locales: ['en'] }) ?? {};

describe('number: min, max and step', () => {
  const range = { min: 1, max: 100, step: 1 };

  it('accepts values within the range on the step', async () => {
    for (const value of [1, 100, 42, '7', '1e2']) expect(await decode(number, value, range)).toEqual({ value: Number(value) });
    expect(await decode(number, 0.75, { min: 0.25, step: 0.25 })).toEqual({ value: 0.75 });
    expect(await decode(number, 0.3, { step: 0.1 })).toEqual({ value: 0.3 }); // 0.3 / 0.1 is 2.9999999999999996
    expect(await decode(number, -3, { max: 0 })).toEqual({ value: -3 });
    expect(await decode(number, null, range, { property: property('int', { nullable: true }) })).toEqual({ value: null });
  });

  it('refuses a value below min, above max or between steps, with the bound in the message', async () => {
    expect(await decode(number, 0, range)).toMatchObject({
      code: 'validation_failed',
      messageKey: 'backend::validation.min',
      params: { min: 1 },
      status: 422,
    });
    expect(await decode(number, -5, range)).toMatchObject({ messageKey: 'backend::validation.min' });
    expect(await decode(number, 101, range)).toMatchObject({ messageKey: 'backend::validation.max', params: { max: 100 } });
    expect(await decode(number, '1e3', range)).toMatchObject({ messageKey: 'backend::validation.max' });
    expect(await decode(number, 2.5, range)).toMatchObject({ messageKey: 'backend::validation.step', params: { step: 1 } });
    expect(await decode(number, 1, { min: 0.5, step: 1 })).toMatchObject({
      messageKey: 'backend::validation.step_from',
      params: { step: 1, base: 0.5 },
    });
    expect(await decode(number, 1.5, { min: 0.5, step: 1 })).toEqual({ value: 1.5 });
    expect(t('backend::validation.step_from', { step: 1, base: 0.5 })).toBe('This value must be 0.5 plus a multiple of 1.');
  });

  it('serves min, max and step as declared', () => {
    expect(schemaOf(number, range)).toEqual(range);
    expect(schemaOf(number, {})).toEqual({});
  });

  it('start-up: numbers, min <= max, step > 0, a whole step on an integer column', () => {
    expect(checkMessage(number, range, { property: property('int') })).toBeUndefined();
    expect(checkError(number, { min: '1' })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.min' });
    expect(checkError(number, { max: Number.NaN })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.max' });
    expect(checkError(number, { min: 5, max: 4 })).toEqual({ code: 'field_options_conflict', key: 'form.fields.price.min' });
    for (const step of [0, -1, Number.POSITIVE_INFINITY, '1'])
      expect(checkError(number, { step: step as number })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.step' });
    expect(checkError(number, { step: 0.5 }, { property: property('int') })).toEqual({
      code: 'field_column_mismatch',
      key: 'form.fields.price.step',
    });
    expect(checkMessage(number, { step: 0.5 }, { property: property('numeric(10,2)') })).toBeUndefined();
  });
});

describe('money: min', () => {
  const field = { currency: 'EUR', scale: 2, max: '1000000' };

  it('is "0" by default: a negative amount is money.too_small', async () => {
    for (const value of ['-0.01', '-3', '-1000001'])
      expect(await decode(money, value, field)).toMatchObject({
        code: 'money.too_small',
        messageKey: 'backend::fields.money.too_small',
        params: { min: '0' },
        status: 422,
      });
    for (const value of ['0', '-0', '-0.00', '0.01']) expect(await decode(money, value, field)).toEqual({ value });
    expect(t('backend::fields.money.too_small', { min: '0' })).toBe('The amount must be at least 0.');
  });

  it('an explicit min is signed; max stays the upper bound', async () => {
    const credit = { ...field, min: '-500.50' };
    expect(await decode(money, '-500.50', credit)).toEqual({ value: '-500.50' });
    expect(await decode(money, '-500.51', credit)).toMatchObject({ code: 'money.too_small', params: { min: '-500.50' } });
    expect(await decode(money, '1000000.01', credit)).toMatchObject({ code: 'money.too_large' });
    expect(await decode(money, '9.99', { ...field, min: 10 })).toMatchObject({ code: 'money.too_small', params: { min: '10' } });
  });

  it('min: null allows negative amounts, bounded in absolute value by max as before', async () => {
    const any = { ...field, min: null };
    for (const value of ['-3', '-1000000']) expect(await decode(money, value, any)).toEqual({ value });
    expect(await decode(money, '-1000001', any)).toMatchObject({ code: 'money.too_large', params: { max: '1000000' } });
  });

  it('serves the min it enforces', () => {
    expect(schemaOf(money, field)).toMatchObject({ min: '0', max: '1000000' });
    expect(schemaOf(money, { ...field, min: '-5' })).toMatchObject({ min: '-5' });
    expect(schemaOf(money, { ...field, min: null })).not.toHaveProperty('min');
  });

  it('start-up: a decimal or null, not above max, fitting the column', () => {
    expect(checkMessage(money, { ...field, min: '-5' })).toBeUndefined();
    expect(checkMessage(money, { ...field, min: null })).toBeUndefined();
    for (const min of ['1e3', 'x', Number.NaN, true])
      expect(checkError(money, { ...field, min: min as string })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.min' });
    expect(checkError(money, { ...field, min: '1000001' })).toEqual({ code: 'field_options_conflict', key: 'form.fields.price.min' });
    expect(checkError(money, { currency: 'EUR', scale: 2, min: '-100000000' }, { property: property('numeric(9,2)') })).toEqual({
      code: 'field_column_mismatch',
      key: 'form.fields.price.min',
    });
  });

  it('compares signed decimals digit by digit', () => {
    expect(compareDecimal('-0', '0')).toBe(0);
    expect(compareDecimal('-0.00', '0.0')).toBe(0);
    expect(compareDecimal('-1', '0')).toBe(-1);
    expect(compareDecimal('-1', '-2')).toBe(1);
    expect(compareDecimal('0010.5', '10.50')).toBe(0);
    expect(compareDecimal('2', '-3')).toBe(1);
  });
});
