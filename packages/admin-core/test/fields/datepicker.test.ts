import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_FIELD_TYPES, FieldError } from '../../src/fields/index.ts';
import { checkError, checkMessage, decode, decodeContext, property } from './support.ts';

const datepicker = BUILTIN_FIELD_TYPES.get('datepicker')!;
const encode = (value: unknown, field: Record<string, unknown> = {}) =>
  datepicker.encode(value, { type: 'datepicker', ...field }, { locales: [] });

describe('datepicker decode', () => {
  it('date mode: real calendar days as YYYY-MM-DD', async () => {
    expect(await decode(datepicker, '2024-02-29', { mode: 'date' })).toEqual({ value: '2024-02-29' });
    for (const value of ['2023-02-29', '2024-13-01', '2024-04-31', '2024-1-5', '2024-01-05T00:00:00Z', '05.01.2024', 20240105]) {
      expect(await decode(datepicker, value, { mode: 'date' })).toMatchObject({
        code: 'validation_failed',
        messageKey: 'backend::fields.datepicker.date',
      });
    }
  });

  it('datetime mode (default): ISO 8601 with an offset or Z, as the instant', async () => {
    expect(await decode(datepicker, '2024-05-01T14:30:00+02:00')).toEqual({ value: new Date('2024-05-01T12:30:00.000Z') });
    expect(await decode(datepicker, '2024-05-01T14:30Z')).toEqual({ value: new Date('2024-05-01T14:30:00.000Z') });
    expect(await decode(datepicker, '2024-05-01T14:30:00.123456-05:30')).toEqual({ value: new Date('2024-05-01T20:00:00.123Z') });
    for (const value of [
      '2024-05-01T14:30:00',
      '2024-05-01 14:30:00Z',
      '2024-05-01T24:00:00Z',
      '2024-05-01T14:60Z',
      '2024-02-30T10:00Z',
      '2024-05-01T10:00+2',
    ]) {
      expect(await decode(datepicker, value)).toMatchObject({ messageKey: 'backend::fields.datepicker.datetime' });
    }
  });

  it('ignoreTimezone keeps the wall-clock as sent, with or without an offset', async () => {
    const field = { ignoreTimezone: true };
    expect(await decode(datepicker, '2024-05-01T14:30:00', field)).toEqual({ value: new Date('2024-05-01T14:30:00Z') });
    expect(await decode(datepicker, '2024-05-01T14:30:00+09:00', field)).toEqual({ value: new Date('2024-05-01T14:30:00Z') });
    expect(await decode(datepicker, '2024-05-01', field)).toMatchObject({ messageKey: 'backend::fields.datepicker.datetime_local' });
  });

  it('returns ISO text to a property hydrated as a string', async () => {
    const stringProp = property('timestamptz', { runtimeType: 'string' });
    expect(await decode(datepicker, '2024-05-01T14:30:00+02:00', {}, { property: stringProp })).toEqual({
      value: '2024-05-01T12:30:00.000Z',
    });
    expect(await decode(datepicker, '2024-05-01T14:30:00', { ignoreTimezone: true }, { property: stringProp })).toEqual({
      value: '2024-05-01T14:30:00',
    });
  });

  it('time mode: HH:MM[:SS] as HH:MM:SS', async () => {
    expect(await decode(datepicker, '09:05', { mode: 'time' })).toEqual({ value: '09:05:00' });
    expect(await decode(datepicker, '23:59:59', { mode: 'time' })).toEqual({ value: '23:59:59' });
    for (const value of ['24:00', '9:05', '12:60', '12:00:60', '12:00Z']) {
      expect(await decode(datepicker, value, { mode: 'time' })).toMatchObject({ messageKey: 'backend::fields.datepicker.time' });
    }
  });

  it('rechecks minDate and maxDate on save, on the day as sent', async () => {
    const field = { mode: 'date', minDate: '2000-01-01', maxDate: '2030-12-31' };
    expect(await decode(datepicker, '1999-12-31', field)).toMatchObject({
      code: 'validation_failed',
      messageKey: 'backend::fields.datepicker.before_min',
      params: { date: '2000-01-01' },
    });
    expect(await decode(datepicker, '2031-01-01', field)).toMatchObject({
      messageKey: 'backend::fields.datepicker.after_max',
      params: { date: '2030-12-31' },
    });
    expect(await decode(datepicker, '2000-01-01', field)).toEqual({ value: '2000-01-01' });
    // 23:30 on 31 Dec 1999 in New York is already 2000 in UTC, but the admin picked 1999.
    expect(await decode(datepicker, '1999-12-31T23:30:00-05:00', { minDate: '2000-01-01' })).toMatchObject({
      messageKey: 'backend::fields.datepicker.before_min',
    });
  });

  it('handles empty values by requiredness and column nullability', async () => {
    expect(await decode(datepicker, null, {}, { property: property('timestamptz', { nullable: true }) })).toEqual({ value: null });
    expect(await decode(datepicker, '', {}, { property: property('timestamptz') })).toMatchObject({
      messageKey: 'backend::validation.required',
    });
    expect(await decode(datepicker, undefined, { required: true })).toMatchObject({ messageKey: 'backend::validation.required' });
  });

  it('never throws anything but a FieldError, whatever it is sent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.constantFrom('date', 'datetime', 'time'), fc.boolean(), async (value, mode, ignoreTimezone) => {
        try {
          await datepicker.decode(
            value,
            {
              type: 'datepicker',
              mode,
              ignoreTimezone: mode === 'datetime' ? ignoreTimezone : undefined,
              minDate: mode === 'time' ? undefined : '2000-01-01',
            },
            decodeContext(),
          );
        } catch (error) {
          expect(error).toBeInstanceOf(FieldError);
        }
      }),
    );
  });
});

describe('datepicker encode', () => {
  it('writes the same string shapes back', () => {
    expect(encode('2024-02-29', { mode: 'date' })).toBe('2024-02-29');
    expect(encode(new Date('2024-02-29T00:00:00Z'), { mode: 'date' })).toBe('2024-02-29');
    expect(encode(new Date('2024-05-01T12:30:00Z'))).toBe('2024-05-01T12:30:00.000Z');
    expect(encode(new Date('2024-05-01T14:30:00Z'), { ignoreTimezone: true })).toBe('2024-05-01T14:30:00');
    expect(encode('2024-05-01 14:30:00', { ignoreTimezone: true })).toBe('2024-05-01T14:30:00');
    expect(encode('09:05:00.000000', { mode: 'time' })).toBe('09:05:00');
    expect(encode(null)).toBeNull();
  });

  it('round-trips a wall-clock decode through encode unchanged', async () => {
    const decoded = await decode(datepicker, '2024-05-01T14:30:00', { ignoreTimezone: true });
    expect(encode(decoded.value, { ignoreTimezone: true })).toBe('2024-05-01T14:30:00');
  });
});

describe('datepicker check', () => {
  it('mode must match the bound column type', () => {
    expect(checkError(datepicker, { mode: 'date' }, { property: property('timestamptz', { name: 'published_at' }) })).toEqual({
      code: 'field_column_mismatch',
      key: 'form.fields.price.mode',
    });
    expect(checkError(datepicker, {}, { property: property('date') })).toEqual({
      code: 'field_column_mismatch',
      key: 'form.fields.price.mode',
    });
    expect(checkMessage(datepicker, { mode: 'time' }, { property: property('time(0)') })).toBeUndefined();
    expect(checkMessage(datepicker, { mode: 'date' }, { property: property('date') })).toBeUndefined();
    expect(checkMessage(datepicker, {}, { property: property('timestamp(6)') })).toBeUndefined();
    expect(checkError(datepicker, { mode: 'week' })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.mode' });
  });

  it('firstDay 0..6, minDate/maxDate as real YYYY-MM-DD, yearRange shapes', () => {
    expect(checkError(datepicker, { firstDay: 7 })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.firstDay' });
    expect(checkError(datepicker, { firstDay: 1.5 })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.firstDay' });
    expect(checkMessage(datepicker, { firstDay: 0 })).toBeUndefined();
    expect(checkError(datepicker, { minDate: '2000-02-30' })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.minDate' });
    expect(checkError(datepicker, { maxDate: '01.01.2000' })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.maxDate' });
    expect(checkError(datepicker, { minDate: '2020-01-01', maxDate: '2019-01-01' })).toEqual({
      code: 'field_options_conflict',
      key: 'form.fields.price.maxDate',
    });
    expect(checkError(datepicker, { mode: 'time', minDate: '2020-01-01' })).toEqual({
      code: 'field_options_conflict',
      key: 'form.fields.price.minDate',
    });
    expect(checkError(datepicker, { mode: 'date', ignoreTimezone: true })).toEqual({
      code: 'field_options_conflict',
      key: 'form.fields.price.ignoreTimezone',
    });
    for (const yearRange of [[10], [1990, 2030]]) expect(checkMessage(datepicker, { yearRange })).toBeUndefined();
    for (const yearRange of [[], [-1], [2030, 1990], [1, 2, 3], [1.5]])
      expect(checkError(datepicker, { yearRange })).toEqual({ code: 'field_option_invalid', key: 'form.fields.price.yearRange' });
  });

  it('serves the effective mode and the picker options', () => {
    expect(
      datepicker.schema!({ type: 'datepicker', minDate: '2000-01-01', firstDay: 1 }, { t: (k) => k, locale: 'en', locales: ['en'] }),
    ).toEqual({ mode: 'datetime', minDate: '2000-01-01', firstDay: 1 });
  });
});
