import { FieldError } from './types.ts';
import { baseColumnType, checkRequired, configError, invalid, mayBeNull, must, requiredError } from './common.ts';
import { formatWallClock, parseDate, parseDateTime, parseTime } from './dates.ts';
import type { FieldCheckContext, FieldConfig, FieldType } from './types.ts';
import { nullableIf, string } from '../schema/json.ts';
import { DATETIME_IN, DATETIME_LOCAL_IN, DAY, inputMayBeNull, isNullable, TIME, TIME_IN, WALL_CLOCK } from './schemas.ts';

type Mode = 'date' | 'datetime' | 'time';
const MODES: readonly Mode[] = ['date', 'datetime', 'time'];
const modeOf = (field: FieldConfig): Mode => (field.mode as Mode | undefined) ?? 'datetime';

/** Column types (base names, as MikroORM writes them) each mode may bind to. */
const COLUMNS: Record<Mode, readonly string[]> = {
  date: ['date'],
  datetime: ['timestamp', 'timestamptz', 'datetime', 'timestamp with time zone', 'timestamp without time zone'],
  time: ['time', 'timetz', 'time with time zone', 'time without time zone'],
};

function checkDateKey(ctx: FieldCheckContext, key: 'minDate' | 'maxDate', value: unknown): void {
  if (value !== undefined && (typeof value !== 'string' || !parseDate(value))) {
    throw configError(
      ctx,
      'field_option_invalid',
      key,
      `${JSON.stringify(value)} is not a date`,
      'Write it as YYYY-MM-DD, for example "2000-01-01".',
    );
  }
}

function checkYearRange(ctx: FieldCheckContext, range: unknown): void {
  if (range === undefined) return;
  const ok =
    Array.isArray(range) &&
    range.every((n) => Number.isSafeInteger(n)) &&
    ((range.length === 1 && range[0] >= 0) || (range.length === 2 && range[0] <= range[1]));
  if (!ok) {
    throw configError(
      ctx,
      'field_option_invalid',
      'yearRange',
      `${JSON.stringify(range)} is not a year range`,
      'Use `[n]` (n years either side of today, n >= 0) or `[from, to]` with from <= to.',
    );
  }
}

/** A timestamp read as text (`2024-05-01 14:30:00`, maybe with an offset): without one it is UTC, as written. */
const storedDateTime = (text: string): Date => {
  const iso = text.replace(' ', 'T');
  return new Date(/(Z|[+-]\d{2}(:?\d{2})?)$/.test(iso) ? iso : `${iso}Z`);
};

/**
 * Dates, date-times and times as ISO 8601 strings. `datetime` needs an offset (or `Z`) unless
 * `ignoreTimezone`, which keeps the wall-clock as sent (an offset, if sent, is dropped) and
 * stores it as if it were UTC, so it reads back unchanged whatever the server's zone.
 * `minDate`/`maxDate` compare the calendar day as sent.
 */
export const datepickerField: FieldType = {
  name: 'datepicker',
  storage: 'column',
  keys: ['mode', 'format', 'displayFormat', 'minDate', 'maxDate', 'firstDay', 'yearRange', 'ignoreTimezone', 'twelveHour'],
  check(field, ctx) {
    must.oneOf(ctx, 'mode', field.mode, MODES);
    const mode = modeOf(field);
    const column = baseColumnType(ctx);
    if (column && !COLUMNS[mode].includes(column)) {
      const fitting = MODES.find((m) => COLUMNS[m].includes(column));
      throw configError(
        ctx,
        'field_column_mismatch',
        'mode',
        `mode "${mode}" does not match the ${column} column "${ctx.property!.name}"`,
        fitting ? `Use \`mode: '${fitting}'\`, or bind a ${COLUMNS[mode][0]} column.` : `Bind a ${COLUMNS[mode].join(' or ')} column.`,
      );
    }
    if (field.firstDay !== undefined && !(Number.isInteger(field.firstDay) && field.firstDay >= 0 && field.firstDay <= 6)) {
      throw configError(
        ctx,
        'field_option_invalid',
        'firstDay',
        `${JSON.stringify(field.firstDay)} is not a weekday`,
        'Use a whole number from 0 (Sunday) to 6 (Saturday).',
      );
    }
    checkDateKey(ctx, 'minDate', field.minDate);
    checkDateKey(ctx, 'maxDate', field.maxDate);
    if (field.minDate && field.maxDate && field.minDate > field.maxDate) {
      throw configError(
        ctx,
        'field_options_conflict',
        'maxDate',
        `maxDate ${field.maxDate} is before minDate ${field.minDate}`,
        'Swap them or widen the range.',
      );
    }
    if (mode === 'time' && (field.minDate || field.maxDate)) {
      throw configError(
        ctx,
        'field_options_conflict',
        field.minDate ? 'minDate' : 'maxDate',
        'a time field has no date to limit',
        'Remove minDate and maxDate, or use mode date or datetime.',
      );
    }
    if (field.ignoreTimezone !== undefined && mode !== 'datetime') {
      throw configError(
        ctx,
        'field_options_conflict',
        'ignoreTimezone',
        `only a datetime field has a time zone (this one is mode "${mode}")`,
        'Remove `ignoreTimezone`.',
      );
    }
    checkYearRange(ctx, field.yearRange);
    must.string(ctx, 'format', field.format);
    must.string(ctx, 'displayFormat', field.displayFormat);
    must.boolean(ctx, 'ignoreTimezone', field.ignoreTimezone);
    must.boolean(ctx, 'twelveHour', field.twelveHour);
  },
  schema(field) {
    const keys = ['format', 'displayFormat', 'minDate', 'maxDate', 'firstDay', 'yearRange', 'ignoreTimezone', 'twelveHour'] as const;
    return { mode: modeOf(field), ...Object.fromEntries(keys.filter((key) => field[key] !== undefined).map((key) => [key, field[key]])) };
  },
  decode(value, field, ctx) {
    checkRequired(value, field);
    if (value === undefined) return undefined;
    if (value === null || value === '') {
      if (!mayBeNull(ctx)) throw requiredError();
      return null;
    }
    const mode = modeOf(field);
    const text = typeof value === 'string' ? value : '';
    if (mode === 'time') {
      const time = parseTime(text);
      if (!time) throw invalid('backend::fields.datepicker.time');
      return time;
    }
    let day: string;
    let result: string | Date;
    if (mode === 'date') {
      const date = parseDate(text);
      if (!date) throw invalid('backend::fields.datepicker.date');
      day = result = date;
    } else {
      const parsed = parseDateTime(text);
      if (!parsed || !(parsed.instant || field.ignoreTimezone)) {
        throw invalid(field.ignoreTimezone ? 'backend::fields.datepicker.datetime_local' : 'backend::fields.datepicker.datetime');
      }
      day = parsed.day;
      const date = field.ignoreTimezone ? parsed.wallClock : parsed.instant!;
      // A property typed as string (not Date) gets the ISO text instead of a Date.
      result = ctx.property?.runtimeType === 'string' ? (field.ignoreTimezone ? formatWallClock(date) : date.toISOString()) : date;
    }
    if (field.minDate && day < field.minDate)
      throw new FieldError('validation_failed', 'backend::fields.datepicker.before_min', { date: field.minDate });
    if (field.maxDate && day > field.maxDate)
      throw new FieldError('validation_failed', 'backend::fields.datepicker.after_max', { date: field.maxDate });
    return result;
  },
  encode(value, field) {
    if (value === undefined || value === null || value === '') return null;
    const mode = modeOf(field);
    if (mode === 'time') return String(value).slice(0, 8); // time(6) columns add microseconds
    if (mode === 'date') return value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);
    const date = value instanceof Date ? value : storedDateTime(String(value));
    if (Number.isNaN(date.getTime())) return String(value);
    return field.ignoreTimezone ? formatWallClock(date) : date.toISOString();
  },
  /** A record serves dates as `YYYY-MM-DD`, times as `hh:mm:ss`, date-times in UTC (or the wall-clock with `ignoreTimezone`). */
  recordSchema(field) {
    const mode = modeOf(field.config);
    const schema =
      mode === 'date'
        ? string({ pattern: DAY })
        : mode === 'time'
          ? string({ pattern: TIME })
          : field.config.ignoreTimezone
            ? string({ pattern: WALL_CLOCK, description: 'A wall-clock time without offset.' })
            : string({ format: 'date-time' });
    return nullableIf(isNullable(field.property), schema);
  },
  inputSchema(field) {
    const mode = modeOf(field.config);
    const maybeNull = inputMayBeNull(field);
    const pattern = mode === 'date' ? DAY : mode === 'time' ? TIME_IN : field.config.ignoreTimezone ? DATETIME_LOCAL_IN : DATETIME_IN;
    return string({ pattern: maybeNull ? `^$|${pattern}` : pattern, ...(maybeNull ? { nullable: true } : {}) });
  },
};
