// The browser's zone of these tests: a zone with summer time, so offsets and clock changes show.
process.env.TZ = 'Europe/Berlin';

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  addDays,
  addMonths,
  clampDay,
  displayFormatOf,
  formatShows,
  formatWallClock,
  fromValue,
  localeFormat,
  monthGrid,
  parseText,
  tokenize,
  toValue,
  type WallClock,
  weekBounds,
  weekday,
  yearOptions,
} from '../src/form/dates.ts';

const wall = (year: number, month: number, day: number, hour = 0, minute = 0, second = 0, millisecond = 0): WallClock => ({
  year,
  month,
  day,
  hour,
  minute,
  second,
  millisecond,
});

const DATE = { mode: 'date', ignoreTimezone: false } as const;
const DATETIME = { mode: 'datetime', ignoreTimezone: false } as const;
const WALL = { mode: 'datetime', ignoreTimezone: true } as const;
const TIME = { mode: 'time', ignoreTimezone: false } as const;

describe('served values', () => {
  test('a day and a time are shown as written', () => {
    expect(fromValue('2026-09-28', DATE)).toEqual(wall(2026, 9, 28));
    expect(fromValue('14:30:05', TIME)).toMatchObject({ hour: 14, minute: 30, second: 5 });
    expect(fromValue('2026-02-29', DATE)).toBeUndefined();
    expect(fromValue('24:00:00', TIME)).toBeUndefined();
    expect(fromValue(null, DATE)).toBeUndefined();
    expect(fromValue('', DATE)).toBeUndefined();
  });

  test('an instant is shown in the browser’s zone; with ignoreTimezone as stored', () => {
    expect(fromValue('2026-09-28T12:30:35.026Z', DATETIME)).toEqual(wall(2026, 9, 28, 14, 30, 35, 26));
    expect(fromValue('2026-01-31T23:30:00.000Z', DATETIME)).toEqual(wall(2026, 2, 1, 0, 30));
    expect(fromValue('2026-09-28T12:30:00', WALL)).toEqual(wall(2026, 9, 28, 12, 30));
  });

  test('values sent: a day, a time, an instant with the browser’s offset, a wall-clock without', () => {
    expect(toValue(wall(2026, 9, 28), DATE)).toBe('2026-09-28');
    expect(toValue(wall(1970, 1, 1, 7, 5), TIME)).toBe('07:05:00');
    expect(toValue(wall(2026, 9, 28, 14, 30), DATETIME)).toBe('2026-09-28T14:30:00+02:00');
    expect(toValue(wall(2026, 1, 5, 9, 0, 0, 250), DATETIME)).toBe('2026-01-05T09:00:00.250+01:00');
    expect(toValue(wall(2026, 9, 28, 14, 30), WALL)).toBe('2026-09-28T14:30:00');
    expect(toValue(wall(33, 3, 1), DATE)).toBe('0033-03-01');
  });

  test('a time the clock skips moves on, as the clock does', () => {
    // 29 March 2026, 02:30 does not exist in Berlin.
    expect(toValue(wall(2026, 3, 29, 2, 30), DATETIME)).toBe('2026-03-29T03:30:00+02:00');
  });

  test('what is sent reads back as the same instant (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }),
        (date) => {
          const shown = fromValue(date.toISOString(), DATETIME)!;
          expect(new Date(toValue(shown, DATETIME)).getTime()).toBe(date.getTime());
        },
      ),
    );
  });
});

describe('display formats', () => {
  test('tokens and literal text', () => {
    expect(tokenize('DD/MM/YYYY [at] HH:mm')).toEqual([
      { token: 'DD' },
      { literal: '/' },
      { token: 'MM' },
      { literal: '/' },
      { token: 'YYYY' },
      { literal: ' at ' },
      { token: 'HH' },
      { literal: ':' },
      { token: 'mm' },
    ]);
  });

  test('formats every token', () => {
    const w = wall(2026, 9, 8, 14, 5, 7);
    expect(formatWallClock(w, 'DD/MM/YYYY HH:mm:ss')).toBe('08/09/2026 14:05:07');
    expect(formatWallClock(w, 'D.M.YY H:m:s')).toBe('8.9.26 14:5:7');
    expect(formatWallClock(w, 'hh:mm A')).toBe('02:05 PM');
    expect(formatWallClock(wall(2026, 1, 1, 0, 30), 'h:mm a')).toBe('12:30 am');
    expect(formatWallClock(wall(2026, 1, 1, 12, 0), 'h a')).toBe('12 pm');
  });

  test('the locale’s own format when the field has none', () => {
    expect(localeFormat('de', 'date')).toBe('DD.MM.YYYY');
    expect(localeFormat('de', 'datetime')).toBe('DD.MM.YYYY, HH:mm');
    expect(localeFormat('en-US', 'date')).toBe('MM/DD/YYYY');
    expect(localeFormat('en-US', 'time', true)).toBe('hh:mm A');
    expect(localeFormat('en-GB', 'time')).toBe('HH:mm');
    expect(displayFormatOf({ mode: 'date', displayFormat: 'YYYY/MM/DD' }, 'de')).toBe('YYYY/MM/DD');
    expect(displayFormatOf({ mode: 'time' }, 'de')).toBe('HH:mm');
    expect(formatShows('DD.MM.YYYY, hh:mm A')).toEqual({ date: true, time: true, twelveHour: true });
  });

  test.each(['de', 'en', 'en-US', 'fr', 'ja', 'ar', 'he', 'bg', 'ko', 'hu', 'zh'])(
    'the format of %s reads back what it writes',
    (locale) => {
      for (const mode of ['date', 'datetime', 'time'] as const) {
        for (const twelve of [false, true]) {
          const format = localeFormat(locale, mode, twelve);
          const w = mode === 'time' ? wall(1970, 1, 1, 15, 45) : mode === 'date' ? wall(2031, 12, 24) : wall(2031, 12, 24, 15, 45);
          expect(parseText(formatWallClock(w, format), format, { mode }), `${locale} ${mode} ${format}`).toEqual(w);
        }
      }
    },
  );
});

describe('typed text', () => {
  const date = (text: string, format = 'DD/MM/YYYY') => parseText(text, format, { mode: 'date', pivotYear: 2026 });
  const datetime = (text: string, format = 'DD/MM/YYYY HH:mm') => parseText(text, format, { mode: 'datetime', pivotYear: 2026 });
  const time = (text: string, format = 'HH:mm') => parseText(text, format, { mode: 'time' });

  test('in the display format, whatever separates the numbers', () => {
    expect(date('28/09/2026')).toEqual(wall(2026, 9, 28));
    expect(date('28.9.2026')).toEqual(wall(2026, 9, 28));
    expect(date(' 1 2 2026 ')).toEqual(wall(2026, 2, 1));
    expect(date('28092026')).toEqual(wall(2026, 9, 28));
    expect(date('9/28/2026', 'M/D/YYYY')).toEqual(wall(2026, 9, 28));
  });

  test('ISO 8601 whatever the display format', () => {
    expect(date('2026-09-28')).toEqual(wall(2026, 9, 28));
    expect(datetime('2026-09-28T14:30')).toEqual(wall(2026, 9, 28, 14, 30));
    expect(datetime('2026-09-28T12:30:00Z')).toEqual(wall(2026, 9, 28, 14, 30));
    expect(time('07:15:30')).toEqual(wall(1970, 1, 1, 7, 15, 30));
  });

  test('two-digit years near the pivot year', () => {
    expect(date('28/09/26')).toEqual(wall(2026, 9, 28));
    expect(date('28/09/80')).toEqual(wall(1980, 9, 28));
    expect(date('1/1/76')).toEqual(wall(2076, 1, 1));
    expect(date('28/09/26', 'DD/MM/YY')).toEqual(wall(2026, 9, 28));
  });

  test('a date-time may leave out its time; a time its minutes', () => {
    expect(datetime('28/09/2026')).toEqual(wall(2026, 9, 28));
    expect(datetime('28/09/2026 9')).toEqual(wall(2026, 9, 28, 9));
    expect(time('9')).toEqual(wall(1970, 1, 1, 9));
  });

  test('am and pm on any clock', () => {
    expect(time('2:30 pm')).toEqual(wall(1970, 1, 1, 14, 30));
    expect(time('2:30pm', 'hh:mm A')).toEqual(wall(1970, 1, 1, 14, 30));
    expect(time('12:05 a.m.', 'hh:mm A')).toEqual(wall(1970, 1, 1, 0, 5));
    expect(time('12:05 PM', 'hh:mm A')).toEqual(wall(1970, 1, 1, 12, 5));
    expect(time('02:05', 'hh:mm A')).toEqual(wall(1970, 1, 1, 2, 5));
    expect(time('14:05', 'hh:mm A')).toEqual(wall(1970, 1, 1, 14, 5));
    expect(time('14:05 am', 'hh:mm A')).toBeUndefined();
    expect(time('13:05 pm')).toBeUndefined();
  });

  test('digits of other scripts', () => {
    expect(date('٢٨/٠٩/٢٠٢٦')).toEqual(wall(2026, 9, 28));
  });

  test('literal letters of the format may be typed', () => {
    expect(date('28.09.2026 г.', 'DD.MM.YYYY [г.]')).toEqual(wall(2026, 9, 28));
  });

  test('not understood: no real value, words, too few or too many numbers', () => {
    for (const text of [
      '31/02/2026',
      '29/02/2027',
      '00/01/2026',
      '28/13/2026',
      'yesterday',
      '28/09',
      '28/09/2026/1',
      '2026-02-30',
      '12345',
    ]) {
      expect(date(text), text).toBeUndefined();
    }
    for (const text of ['24:00', '12:60', '12:30:60', 'noon', '']) expect(time(text), text).toBeUndefined();
    expect(datetime('28/09/2026 25:00')).toBeUndefined();
    expect(date('29/02/2028')).toEqual(wall(2028, 2, 29));
  });

  test('what is written in a format reads back (property)', () => {
    const formats = ['DD/MM/YYYY HH:mm:ss', 'YYYY-MM-DD HH:mm:ss', 'M/D/YYYY h:mm:ss A', 'D.M.YYYY, H:m:s', 'YYYYMMDD HHmmss'];
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }),
        fc.constantFrom(...formats),
        (date, format) => {
          const w = wall(
            date.getUTCFullYear(),
            date.getUTCMonth() + 1,
            date.getUTCDate(),
            date.getUTCHours(),
            date.getUTCMinutes(),
            date.getUTCSeconds(),
          );
          expect(parseText(formatWallClock(w, format), format, { mode: 'datetime' })).toEqual(w);
        },
      ),
    );
  });
});

describe('the calendar', () => {
  test('days and months move across months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('0050-01-01', 7)).toBe('0050-01-08');
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2024-03-31', -1)).toBe('2024-02-29');
    expect(addMonths('2026-11-15', 14)).toBe('2028-01-15');
    expect(addMonths('2024-02-29', -12)).toBe('2023-02-28');
  });

  test('weeks start on firstDay', () => {
    expect(weekday('2026-09-28')).toBe(1); // a Monday
    expect(weekBounds('2026-09-30', 1)).toEqual(['2026-09-28', '2026-10-04']);
    expect(weekBounds('2026-09-30', 0)).toEqual(['2026-09-27', '2026-10-03']);
    expect(weekBounds('2026-09-27', 1)).toEqual(['2026-09-21', '2026-09-27']);
    const monday = monthGrid(2026, 9, 1);
    expect(monday[0]).toEqual([null, '2026-09-01', '2026-09-02', '2026-09-03', '2026-09-04', '2026-09-05', '2026-09-06']);
    expect(monday.at(-1)).toEqual(['2026-09-28', '2026-09-29', '2026-09-30', null, null, null, null]);
    const sunday = monthGrid(2026, 2, 0);
    expect(sunday[0]![0]).toBe('2026-02-01');
    expect(sunday).toHaveLength(4);
  });

  test('every month grid holds its days once, in weeks of seven (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 6 }),
        (year, month, firstDay) => {
          const weeks = monthGrid(year, month, firstDay);
          expect(weeks.every((week) => week.length === 7)).toBe(true);
          const days = weeks.flat().filter((day) => day !== null);
          expect(days[0]).toBe(`${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-01`);
          for (let i = 1; i < days.length; i++) expect(days[i]).toBe(addDays(days[i - 1]!, 1));
          expect(weekday(weeks[0]!.find((day) => day !== null)!) === firstDay).toBe(weeks[0]![0] !== null);
        },
      ),
    );
  });

  test('limits', () => {
    expect(clampDay('1999-12-31', '2000-01-01', undefined)).toBe('2000-01-01');
    expect(clampDay('2031-01-01', undefined, '2030-12-31')).toBe('2030-12-31');
    expect(clampDay('2020-05-05', '2000-01-01', '2030-12-31')).toBe('2020-05-05');
    expect(yearOptions([2], 2026, 2026, undefined, undefined)).toEqual([2024, 2025, 2026, 2027, 2028]);
    expect(yearOptions([1990, 1992], 2026, 1991, undefined, undefined)).toEqual([1990, 1991, 1992]);
    expect(yearOptions([1990, 1992], 2026, 2026, undefined, undefined)).toEqual([1990, 1991, 1992, 2026]);
    expect(yearOptions([30], 2026, 2026, '2000-01-01', '2027-06-30')).toEqual(Array.from({ length: 28 }, (_, i) => 2000 + i));
    expect(yearOptions(undefined, 2026, 2026, undefined, undefined)).toHaveLength(21);
  });
});
