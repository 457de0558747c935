import { configError, isString, must } from './common.ts';
import { FieldError, type FieldCheckContext, type FieldConfig, type FieldEncodeContext, type FieldType } from './types.ts';

/*
 * Cross-field rules and a field's own `validate` (docs/field-types.md, "Cross-field rules"):
 * `after: 'starts_at'` / `before: 'ends_at'` on datepicker and number fields, and
 * `validate(value, values)` on any field with a value. Checked at start-up here; applied on save
 * by `crossFieldRefusals` and `validateRefusals`, after every value is decoded.
 */

/** Types whose values can be ordered: their encoded values compare as numbers or ISO strings. */
const COMPARABLE = ['datepicker', 'number'];
const RULES = ['after', 'before'] as const;
type Rule = (typeof RULES)[number];

/** The value mode of a datepicker that decides how its encoded values look (and so compare). */
const shapeOf = (field: FieldConfig): string =>
  field.type === 'datepicker' ? `${field.mode ?? 'datetime'}${field.ignoreTimezone ? ' without time zone' : ''}` : field.type;

/**
 * Start-up check of `after`, `before` and `validate`: a rule only on a datepicker or number field,
 * naming another field of the same form of the same type (a datepicker of the same mode and time
 * zone handling), which must have a stored or sent value (not itself, not virtual).
 */
export function checkCrossFieldRules(field: FieldConfig, ctx: FieldCheckContext, type: FieldType | undefined): void {
  must.function(ctx, 'validate', field.validate);
  if (field.validate !== undefined && type?.storage === 'none') {
    throw configError(
      ctx,
      'field_rule_invalid',
      'validate',
      `a ${field.type} field has no value to validate`,
      'Remove `validate`; only fields with a value take it.',
    );
  }
  for (const rule of RULES) {
    const other: unknown = field[rule];
    if (other === undefined) continue;
    if (!COMPARABLE.includes(field.type)) {
      throw configError(
        ctx,
        'field_rule_invalid',
        rule,
        `\`${rule}\` compares ordered values, and a ${field.type} field has none`,
        'Use it on a datepicker or number field, or write the rule in `validate(value, values)`.',
      );
    }
    if (!isString(other) || other === '' || other === ctx.field) {
      throw configError(
        ctx,
        'field_reference_unknown',
        rule,
        `${JSON.stringify(other)} does not name another field`,
        `Use \`${rule}: "<another field>"\`.`,
      );
    }
    if (!ctx.fields) continue;
    const target = Object.hasOwn(ctx.fields, other) ? ctx.fields[other] : undefined;
    if (!target) {
      throw configError(
        ctx,
        'field_reference_unknown',
        rule,
        `the form has no field "${other}"`,
        `Use one of ${Object.keys(ctx.fields).join(', ')}.`,
      );
    }
    if (target.type !== field.type || shapeOf(target) !== shapeOf(field)) {
      throw configError(
        ctx,
        'field_rule_invalid',
        rule,
        `"${other}" is a ${shapeOf(target)} field and cannot be compared with this ${shapeOf(field)} field`,
        `Compare with a ${shapeOf(field)} field${field.type === 'datepicker' ? ' (the same `mode` and `ignoreTimezone`)' : ''}.`,
      );
    }
    if (target.virtual) {
      throw configError(
        ctx,
        'field_rule_invalid',
        rule,
        `"${other}" is virtual and has no stored value to compare with`,
        'Compare with a stored field.',
      );
    }
  }
}

/** A field as the save knows it: its config, type and how its values encode. */
export interface CrossField {
  name: string;
  config: FieldConfig;
  type: FieldType;
}

export interface CrossFieldInput {
  fields: ReadonlyMap<string, CrossField>;
  /** The new values of this save by field name, as decoded (fields that failed or were not sent are absent). */
  values: ReadonlyMap<string, unknown>;
  /** Fields whose value was refused: rules that involve them are skipped. */
  refused: ReadonlySet<string>;
  /** The stored value of a field (update), undefined on create. */
  stored(field: CrossField): unknown;
  encode: FieldEncodeContext;
  /** The localized label of a field (its `label`, else its name), for the messages. */
  label(field: CrossField): string;
}

const MESSAGES: Record<Rule, Record<string, string>> = {
  after: { datepicker: 'backend::fields.cross.after_date', number: 'backend::fields.cross.after_number' },
  before: { datepicker: 'backend::fields.cross.before_date', number: 'backend::fields.cross.before_number' },
};

/**
 * The refusals of `after` and `before`: a rule holds when either side is part of the save, and
 * compares the new value of each side, or its stored value when it is not sent (on update). A
 * side without a value (null, nothing stored, not sent on create) or whose value was refused
 * leaves the rule alone. The refusal names the field that declares the rule.
 */
export function crossFieldRefusals(input: CrossFieldInput): Array<{ field: string; error: FieldError }> {
  const refusals: Array<{ field: string; error: FieldError }> = [];
  for (const field of input.fields.values()) {
    for (const rule of RULES) {
      const name = field.config[rule];
      const other = name === undefined ? undefined : input.fields.get(name);
      if (!other || input.refused.has(field.name) || input.refused.has(other.name)) continue;
      if (!input.values.has(field.name) && !input.values.has(other.name)) continue;
      const own = comparable(field, input);
      const theirs = comparable(other, input);
      if (own === undefined || theirs === undefined) continue;
      const holds = rule === 'after' ? own > theirs : own < theirs;
      if (!holds) {
        const key = MESSAGES[rule][field.config.type] ?? MESSAGES[rule].number!;
        refusals.push({ field: field.name, error: new FieldError('validation_failed', key, { field: input.label(other) }) });
      }
    }
  }
  return refusals;
}

/** The value a rule compares: the encoded new or stored value (numbers, or ISO strings that sort by time). */
function comparable(field: CrossField, input: CrossFieldInput): number | string | undefined {
  const raw = input.values.has(field.name) ? input.values.get(field.name) : input.stored(field);
  if (raw === undefined || raw === null || raw === '') return undefined;
  const value = field.type.encode(raw, field.config, input.encode);
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Runs each field's `validate(value, values)` for the fields whose value this save decoded and
 * did not refuse (`values`: every decoded value by field name). A non-empty string is the field's
 * message: a string key (`acme.events::events.too_long`, translated in the request's locale) or
 * literal text. Anything thrown is a bug of the rule (an opaque 500).
 */
export async function validateRefusals(
  fields: Iterable<CrossField>,
  values: Readonly<Record<string, unknown>>,
  refused: ReadonlySet<string>,
): Promise<Array<{ field: string; message: string }>> {
  const refusals: Array<{ field: string; message: string }> = [];
  for (const field of fields) {
    const rule = field.config.validate;
    if (!rule || refused.has(field.name) || !Object.hasOwn(values, field.name)) continue;
    const message = await rule(values[field.name], values);
    if (typeof message === 'string' && message !== '') refusals.push({ field: field.name, message });
  }
  return refusals;
}
