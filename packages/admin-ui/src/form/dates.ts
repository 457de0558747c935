/**
 * The datepicker's pure logic (docs/field-types.md, "datepicker"; docs/admin-ui.md, "Forms"): the
 * values the API serves and accepts per mode, a small formatter and lenient parser for the
 * moment-style `displayFormat` tokens, the locale's default format from `Intl`, and the calendar
 * arithmetic of the picker. No DOM, no Lit: unit-tested on its own.
 */

export type DateMode = 'date' | 'datetime' | 'time';

/** A calendar day and a wall-clock time as the admin sees them (month 1..12). */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** What the conversions need to know of the field. */
export interface DateField {
  mode: DateMode;
  ignoreTimezone: boolean;
}

/** A calendar day as `YYYY-MM-DD` (comparable as text for the years 1..9999). */
export type Day = string;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

export function daysInMonth(year: number, month: number): number {
  return [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

function realDate(year: number, month: number, day: number): boolean {
  return year >= 1 && year <= 9999 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

const realTime = (hour: number, minute: number, second: number) =>
  hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59;

const MIDNIGHT = { hour: 0, minute: 0, second: 0, millisecond: 0 };

/** A UTC `Date` of a day (setUTCFullYear, not Date.UTC: Date.UTC reads years 0..99 as 1900..1999). */
function utc(year: number, month: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date;
}

/* ---------------------------------------------------------------------------------------------
 * Values as the API serves and accepts them.
 * ------------------------------------------------------------------------------------------- */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;
const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

function fraction(text: string | undefined): number {
  return Number((text ?? '').padEnd(3, '0').slice(0, 3));
}

/** Local wall-clock fields of an instant. */
function localWallClock(date: Date): WallClock {
  return {
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
    hour: date.getHours(),
    minute: date.getMinutes(),
    second: date.getSeconds(),
    millisecond: date.getMilliseconds(),
  };
}

/** The instant of a wall-clock in the browser's zone (a time skipped by a clock change moves on, as `Date` does). */
function localInstant(wall: WallClock): Date {
  const date = new Date(0);
  date.setFullYear(wall.year, wall.month - 1, wall.day);
  date.setHours(wall.hour, wall.minute, wall.second, wall.millisecond);
  return date;
}

/**
 * Reads an ISO 8601 text (a served value, or one an admin typed): the wall-clock it names, in the
 * browser's zone when it carries an offset and `local` is set, else as written.
 */
function parseIso(text: string, mode: DateMode, local = true): WallClock | undefined {
  const trimmed = text.trim();
  if (mode === 'time') {
    const match = ISO_TIME.exec(trimmed);
    if (!match) return undefined;
    const [hour, minute, second] = [match[1], match[2], match[3] ?? '0'].map(Number) as [number, number, number];
    if (!realTime(hour, minute, second)) return undefined;
    return { year: 1970, month: 1, day: 1, hour, minute, second, millisecond: fraction(match[4]) };
  }
  const date = ISO_DATE.exec(trimmed);
  if (date) {
    const [year, month, day] = [date[1], date[2], date[3]].map(Number) as [number, number, number];
    return realDate(year, month, day) ? { year, month, day, ...MIDNIGHT } : undefined;
  }
  if (mode === 'date') return undefined;
  const match = ISO_DATETIME.exec(trimmed);
  if (!match) return undefined;
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((i) => Number(match[i])) as [number, number, number, number, number];
  const second = Number(match[6] ?? 0);
  if (!realDate(year, month, day) || !realTime(hour, minute, second)) return undefined;
  const wall: WallClock = { year, month, day, hour, minute, second, millisecond: fraction(match[7]) };
  const zone = match[8]?.toUpperCase();
  if (!zone || !local) return wall;
  let offset = 0;
  if (zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    offset = (zone.startsWith('-') ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  }
  const instant = utc(year, month, day);
  instant.setUTCHours(hour, minute, second, wall.millisecond);
  return localWallClock(new Date(instant.getTime() - offset * 60_000));
}

/**
 * The wall-clock a served value shows: a day as is, a time as is, a date-time in the browser's
 * zone (with `ignoreTimezone`, the wall-clock as stored). Undefined for empty or unreadable values.
 */
export function fromValue(value: unknown, field: DateField): WallClock | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  if (field.mode === 'datetime' && ISO_DATE.test(value.trim())) return undefined;
  return parseIso(value, field.mode, !field.ignoreTimezone);
}

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

const isoDayOf = (wall: Pick<WallClock, 'year' | 'month' | 'day'>): Day => `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;

/**
 * The value to send: `YYYY-MM-DD`, `HH:MM:SS`, or a date-time in ISO 8601 with the browser's
 * offset (`2026-09-28T14:30:00+02:00`: the instant, and the calendar day as the admin chose it,
 * which is what the server checks `minDate`/`maxDate` against); with `ignoreTimezone` the
 * wall-clock without offset (`2026-09-28T14:30:00`).
 */
export function toValue(wall: WallClock, field: DateField): string {
  const time = (w: WallClock) => `${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
  const ms = (w: WallClock) => (w.millisecond ? `.${pad(w.millisecond, 3)}` : '');
  if (field.mode === 'date') return isoDayOf(wall);
  if (field.mode === 'time') return time(wall);
  if (field.ignoreTimezone) return `${isoDayOf(wall)}T${time(wall)}${ms(wall)}`;
  const instant = localInstant(wall);
  const shown = localWallClock(instant);
  return `${isoDayOf(shown)}T${time(shown)}${ms(shown)}${offsetText(-instant.getTimezoneOffset())}`;
}

/* ---------------------------------------------------------------------------------------------
 * Display formats: moment-style tokens.
 * ------------------------------------------------------------------------------------------- */

type TokenName = 'YYYY' | 'YY' | 'MM' | 'M' | 'DD' | 'D' | 'HH' | 'H' | 'hh' | 'h' | 'mm' | 'm' | 'ss' | 's' | 'A' | 'a';
export type Token = { token: TokenName } | { literal: string };

const TOKENS = /\[([^\]]*)\]|YYYY|YY|MM|M|DD|D|HH|H|hh|h|mm|m|ss|s|A|a/g;

/** `DD/MM/YYYY HH:mm` as tokens and literal text (`[text]` is literal, as in moment). */
export function tokenize(format: string): Token[] {
  const tokens: Token[] = [];
  let last = 0;
  const literal = (text: string) => {
    if (!text) return;
    const previous = tokens.at(-1);
    if (previous && 'literal' in previous) previous.literal += text;
    else tokens.push({ literal: text });
  };
  for (const match of format.matchAll(TOKENS)) {
    literal(format.slice(last, match.index));
    if (match[1] !== undefined) literal(match[1]);
    else tokens.push({ token: match[0] as TokenName });
    last = match.index + match[0].length;
  }
  literal(format.slice(last));
  return tokens;
}

/** The wall-clock written in a display format. */
export function formatWallClock(wall: WallClock, format: string): string {
  const twelve = wall.hour % 12 === 0 ? 12 : wall.hour % 12;
  const values: Record<TokenName, string> = {
    YYYY: pad(wall.year, 4),
    YY: pad(wall.year % 100),
    MM: pad(wall.month),
    M: String(wall.month),
    DD: pad(wall.day),
    D: String(wall.day),
    HH: pad(wall.hour),
    H: String(wall.hour),
    hh: pad(twelve),
    h: String(twelve),
    mm: pad(wall.minute),
    m: String(wall.minute),
    ss: pad(wall.second),
    s: String(wall.second),
    A: wall.hour < 12 ? 'AM' : 'PM',
    a: wall.hour < 12 ? 'am' : 'pm',
  };
  return tokenize(format)
    .map((part) => ('token' in part ? values[part.token] : part.literal))
    .join('');
}

/** Which fields a format shows (a format without a date shows a time, and the reverse). */
export function formatShows(format: string): { date: boolean; time: boolean; twelveHour: boolean } {
  const names = tokenize(format).flatMap((part) => ('token' in part ? [part.token] : []));
  return {
    date: names.some((name) => /^[YMD]/.test(name)),
    time: names.some((name) => /^[Hhms]/.test(name)),
    twelveHour: names.some((name) => name === 'h' || name === 'hh'),
  };
}

/**
 * The locale's own numeric format for a mode, as tokens (`DD.MM.YYYY, HH:mm` in German,
 * `MM/DD/YYYY, hh:mm A` in American English with `twelveHour`), from `Intl`.
 */
export function localeFormat(locale: string | undefined, mode: DateMode, twelveHour = false): string {
  const options: Intl.DateTimeFormatOptions = { timeZone: 'UTC', numberingSystem: 'latn' };
  if (mode !== 'time') Object.assign(options, { year: 'numeric', month: '2-digit', day: '2-digit' });
  if (mode !== 'date') Object.assign(options, { hour: '2-digit', minute: '2-digit', hourCycle: twelveHour ? 'h12' : 'h23' });
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat(locale, options).formatToParts(utc(2026, 9, 28));
  } catch {
    parts = new Intl.DateTimeFormat('en', options).formatToParts(utc(2026, 9, 28));
  }
  const names: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {
    year: 'YYYY',
    month: 'MM',
    day: 'DD',
    hour: twelveHour ? 'hh' : 'HH',
    minute: 'mm',
    second: 'ss',
    dayPeriod: 'A',
  };
  return parts
    .map((part) => {
      const name = names[part.type];
      if (name) return name;
      if (part.type !== 'literal') return '';
      // Literal text goes in brackets when it holds letters (a token letter would be read as one).
      const text = part.value.replace(/\s/gu, ' ');
      return /\p{L}/u.test(text) ? `[${text}]` : text;
    })
    .join('');
}

/** The display format of a field: its `displayFormat`, or the locale's. */
export function displayFormatOf(
  field: { mode?: string; displayFormat?: string; twelveHour?: boolean },
  locale: string | undefined,
): string {
  return field.displayFormat || localeFormat(locale, modeOf(field.mode), field.twelveHour ?? false);
}

export function modeOf(mode: string | undefined): DateMode {
  return mode === 'date' || mode === 'time' ? mode : 'datetime';
}

/** Digits of other scripts (Arabic-Indic, Persian) as ASCII, full-width ones too. */
function asciiDigits(text: string): string {
  return text.replace(/[\u0660-\u0669\u06f0-\u06f9\uff10-\uff19]/g, (digit) => {
    const code = digit.charCodeAt(0);
    const zero = code >= 0xff10 ? 0xff10 : code >= 0x06f0 ? 0x06f0 : 0x0660;
    return String(code - zero);
  });
}

const WIDTH: Record<TokenName, number> = {
  YYYY: 4,
  YY: 2,
  MM: 2,
  M: 2,
  DD: 2,
  D: 2,
  HH: 2,
  H: 2,
  hh: 2,
  h: 2,
  mm: 2,
  m: 2,
  ss: 2,
  s: 2,
  A: 0,
  a: 0,
};

/** A two-digit year: within 50 years of `pivotYear` (default this year), as people mean it. */
function fullYear(twoDigits: number, pivotYear: number): number {
  const century = Math.floor(pivotYear / 100) * 100;
  const candidate = century + twoDigits;
  if (candidate > pivotYear + 50) return candidate - 100;
  if (candidate < pivotYear - 50) return candidate + 100;
  return candidate;
}

export interface ParseOptions {
  mode: DateMode;
  /** The year two-digit years are read near (default: this year). */
  pivotYear?: number;
}

/**
 * Reads what an admin typed, leniently: ISO 8601 first (`2026-09-28`, `2026-09-28T14:30`,
 * `14:30`), else the numbers in the order the display format names them, whatever separates them
 * (`28.9.26`, `28/09/2026 2:30 pm`), or all digits at once (`28092026`). The time may be left out
 * of a date-time (midnight) and `am`/`pm` may be added to any time. Only real values: `31/02/2026`
 * and `24:00` are not read. Undefined when the text is not understood.
 */
export function parseText(input: string, format: string, options: ParseOptions): WallClock | undefined {
  const { mode } = options;
  let text = asciiDigits(input).trim();
  if (text === '') return undefined;
  const iso = parseIso(text, mode);
  if (iso) return iso;

  const tokens = tokenize(format);
  const wanted = tokens.flatMap((part) =>
    'token' in part &&
    part.token !== 'A' &&
    part.token !== 'a' &&
    (mode !== 'date' || /^[YMD]/.test(part.token)) &&
    (mode !== 'time' || /^[Hhms]/.test(part.token))
      ? [part.token]
      : [],
  );
  if (wanted.length === 0) return undefined;

  // Letters the format itself writes (`г.`, `de`) may be typed too; am and pm anywhere.
  for (const part of tokens) {
    if ('literal' in part && /\p{L}/u.test(part.literal)) text = text.split(part.literal.trim()).join(' ');
  }
  let period: 'am' | 'pm' | undefined;
  text = text.replace(/(?<!\p{L})([ap])\.?\s?m(?!\p{L})\.?/giu, (_whole, letter: string) => {
    period = letter.toLowerCase() === 'a' ? 'am' : 'pm';
    return ' ';
  });
  if (/\p{L}/u.test(text)) return undefined;

  // Numbers in the order the format names them; a run of digits longer than its token holds
  // several, split by the tokens' widths (`28092026`, `1430`).
  const numbers: string[] = [];
  for (const [run] of text.matchAll(/\d+/g)) {
    let rest = run;
    while (rest.length > 0) {
      const token = wanted[numbers.length];
      if (!token) return undefined;
      const width = WIDTH[token];
      const take = Math.min(rest.length, width);
      numbers.push(rest.slice(0, take));
      rest = rest.slice(take);
    }
  }
  const dateTokens = wanted.filter((token) => /^[YMD]/.test(token)).length;
  // A date-time may leave out its time (and any time its seconds): what is left out is zero.
  const least = mode === 'datetime' ? Math.max(dateTokens, 1) : mode === 'time' ? 1 : wanted.length;
  if (numbers.length < least || numbers.length > wanted.length) return undefined;

  const wall: WallClock = { year: 1970, month: 1, day: 1, ...MIDNIGHT };
  let twelve: number | undefined;
  for (const [index, digits] of numbers.entries()) {
    const token = wanted[index]!;
    const value = Number(digits);
    switch (token) {
      case 'YYYY':
        wall.year = digits.length <= 2 ? fullYear(value, options.pivotYear ?? new Date().getFullYear()) : value;
        break;
      case 'YY':
        wall.year = fullYear(value, options.pivotYear ?? new Date().getFullYear());
        break;
      case 'MM':
      case 'M':
        wall.month = value;
        break;
      case 'DD':
      case 'D':
        wall.day = value;
        break;
      case 'HH':
      case 'H':
        wall.hour = value;
        break;
      case 'hh':
      case 'h':
        twelve = value;
        break;
      case 'mm':
      case 'm':
        wall.minute = value;
        break;
      default:
        wall.second = value;
    }
  }
  if (twelve !== undefined) {
    // A 12-hour clock: 1..12 with am (the default) or pm; 0 and 13..23 read as a 24-hour clock.
    if (twelve > 23) return undefined;
    if (twelve === 0 || twelve > 12) {
      if (period === 'am' || (period === 'pm' && twelve < 12)) return undefined;
      wall.hour = twelve;
    } else wall.hour = (twelve % 12) + (period === 'pm' ? 12 : 0);
  } else if (period) {
    if (wall.hour < 1 || wall.hour > 12) return undefined;
    wall.hour = (wall.hour % 12) + (period === 'pm' ? 12 : 0);
  }
  if (mode !== 'time' && !realDate(wall.year, wall.month, wall.day)) return undefined;
  if (!realTime(wall.hour, wall.minute, wall.second)) return undefined;
  return wall;
}

/* ---------------------------------------------------------------------------------------------
 * The calendar.
 * ------------------------------------------------------------------------------------------- */

export function dayOf(wall: Pick<WallClock, 'year' | 'month' | 'day'>): Day {
  return isoDayOf(wall);
}

export function splitDay(day: Day): { year: number; month: number; day: number } {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return { year, month, day: date };
}

/** A day `n` days later (earlier when negative). */
export function addDays(day: Day, n: number): Day {
  const { year, month, day: date } = splitDay(day);
  const moved = utc(year, month, date + n);
  return isoDayOf({ year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() });
}

/** The same day `n` months later, on the month's last day when it is shorter (31 Jan + 1 = 28/29 Feb). */
export function addMonths(day: Day, n: number): Day {
  const { year, month, day: date } = splitDay(day);
  const index = year * 12 + (month - 1) + n;
  const nextYear = Math.floor(index / 12);
  const nextMonth = (index % 12) + 1;
  return isoDayOf({ year: nextYear, month: nextMonth, day: Math.min(date, daysInMonth(nextYear, nextMonth)) });
}

/** 0 Sunday to 6 Saturday. */
export function weekday(day: Day): number {
  const { year, month, day: date } = splitDay(day);
  return utc(year, month, date).getUTCDay();
}

/** The first and last day of the week `day` is in, weeks starting on `firstDay`. */
export function weekBounds(day: Day, firstDay: number): [Day, Day] {
  const back = (weekday(day) - firstDay + 7) % 7;
  return [addDays(day, -back), addDays(day, 6 - back)];
}

/** The weeks of a month, each seven days or `null` outside the month, starting on `firstDay`. */
export function monthGrid(year: number, month: number, firstDay: number): (Day | null)[][] {
  const first = isoDayOf({ year, month, day: 1 });
  const lead = (weekday(first) - firstDay + 7) % 7;
  const cells: (Day | null)[] = Array.from({ length: lead }, () => null);
  for (let date = 1; date <= daysInMonth(year, month); date++) cells.push(isoDayOf({ year, month, day: date }));
  while (cells.length % 7) cells.push(null);
  const weeks: (Day | null)[][] = [];
  for (let at = 0; at < cells.length; at += 7) weeks.push(cells.slice(at, at + 7));
  return weeks;
}

/** The day within `[min, max]` (either may be absent). */
export function clampDay(day: Day, min: Day | undefined, max: Day | undefined): Day {
  if (min && day < min) return min;
  if (max && day > max) return max;
  return day;
}

/**
 * The years the picker offers: `yearRange` (`[n]` years either side of this year, or `[from,
 * to]`; 10 either side by default), within `minDate`/`maxDate`, and the year on show (a value
 * outside the range keeps its year).
 */
export function yearOptions(
  yearRange: readonly number[] | undefined,
  thisYear: number,
  shown: number,
  min: Day | undefined,
  max: Day | undefined,
): number[] {
  let [from, to] =
    yearRange?.length === 2 ? [yearRange[0]!, yearRange[1]!] : [thisYear - (yearRange?.[0] ?? 10), thisYear + (yearRange?.[0] ?? 10)];
  if (min) from = Math.max(from, splitDay(min).year);
  if (max) to = Math.min(to, splitDay(max).year);
  from = Math.max(1, from);
  to = Math.min(9999, to);
  const years = Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
  if (!years.includes(shown)) years.push(shown);
  return years.sort((a, b) => a - b);
}
