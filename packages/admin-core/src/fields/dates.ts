/**
 * Strict ISO 8601 parsing for the datepicker: only the shapes the admin application sends, and
 * only real calendar values (`2023-02-29` and `24:00` are refused, not rolled over as `Date` would).
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function realDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeap(year) ? 29 : DAYS[month - 1]!);
}

const realTime = (hour: number, minute: number, second: number) => hour <= 23 && minute <= 59 && second <= 59;

/** `YYYY-MM-DD` of a real day, or undefined. */
export function parseDate(value: string): string | undefined {
  const match = DATE.exec(value);
  if (!match) return undefined;
  return realDate(Number(match[1]), Number(match[2]), Number(match[3])) ? value : undefined;
}

/** `HH:MM[:SS]` as `HH:MM:SS`, or undefined. */
export function parseTime(value: string): string | undefined {
  const match = TIME.exec(value);
  if (!match) return undefined;
  const second = match[3] ?? '00';
  return realTime(Number(match[1]), Number(match[2]), Number(second)) ? `${match[1]}:${match[2]}:${second}` : undefined;
}

export interface ParsedDateTime {
  /** The calendar day as sent (in the sender's zone): what minDate/maxDate compare against. */
  day: string;
  /** The wall-clock as sent, read as if it were UTC (offset dropped). */
  wallClock: Date;
  /** The instant, when an offset or `Z` was sent. */
  instant?: Date;
}

export function parseDateTime(value: string): ParsedDateTime | undefined {
  const match = DATETIME.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((i) => Number(match[i]));
  const second = Number(match[6] ?? 0);
  const millisecond = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  if (!realDate(year!, month!, day!) || !realTime(hour!, minute!, second)) return undefined;
  const zone = match[8];
  let offsetMinutes = 0;
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const [h, m] = zone.slice(1).split(':').map(Number);
    if (h! > 23 || m! > 59) return undefined;
    offsetMinutes = sign * (h! * 60 + m!);
  }
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0..99 as 1900..1999.
  const wallClock = new Date(0);
  wallClock.setUTCFullYear(year!, month! - 1, day!);
  wallClock.setUTCHours(hour!, minute!, second, millisecond);
  const instant = zone ? new Date(wallClock.getTime() - offsetMinutes * 60_000) : undefined;
  // The offset may carry 0001-01-01 or 9999-12-31 into a year that neither ISO 8601's four
  // digits nor PostgreSQL (which has no year 0) can write: refuse it like any other bad date.
  if (instant && (instant.getUTCFullYear() < 1 || instant.getUTCFullYear() > 9999)) return undefined;
  return { day: value.slice(0, 10), wallClock, instant };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A `Date` holding a wall-clock in its UTC fields, written without offset: `2024-05-01T14:30:00`. */
export function formatWallClock(date: Date): string {
  const ms = date.getUTCMilliseconds();
  return (
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}` +
    (ms ? `.${pad(ms, 3)}` : '')
  );
}
