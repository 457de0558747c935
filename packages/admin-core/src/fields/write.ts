import type { Principal } from '../auth/principal.ts';
import { hasPermissions } from '../auth/permissions.ts';
import { configError, isPlainObject, isScalar, isString } from './common.ts';
import { FieldError, type FieldCheckContext, type FieldConfig, type FieldType, type RelationTarget } from './types.ts';

/*
 * Field-level write permissions (docs/controllers.md, "Field-level write permissions"): a field's
 * `write` rule names the permissions needed to set or change its value, or, with `values`, to set
 * it to one of those values. The start-up check is here; the save and the form schema ask
 * `writeRefusal` and `mayWrite`.
 */

const RULE_KEYS = ['permissions', 'values'];
const FIX = 'Use `write: { permissions: ["<plugin permission>"] }`, optionally with `values: ["published"]`.';

/** Start-up check of `write`: a rule of declared permission codes, on a field that has a value. */
export function checkWriteRule(field: FieldConfig, ctx: FieldCheckContext, type: FieldType | undefined): void {
  const rule: unknown = field.write;
  if (rule === undefined) return;
  if (!isPlainObject(rule)) throw configError(ctx, 'field_option_invalid', 'write', 'must be `{ permissions, values? }`', FIX);
  for (const key of Object.keys(rule))
    if (!RULE_KEYS.includes(key)) throw configError(ctx, 'field_key_unknown', 'write', `unknown key "${key}" in the write rule`, FIX);
  if (type?.storage === 'none') {
    throw configError(
      ctx,
      'field_rule_invalid',
      'write',
      `a ${field.type} field has no value to write`,
      'Remove `write`; only fields with a value take it.',
    );
  }
  const { permissions, values } = rule;
  if (!Array.isArray(permissions) || permissions.length === 0 || !permissions.every((code) => isString(code) && code !== '')) {
    throw configError(ctx, 'field_option_invalid', 'write.permissions', 'must be a non-empty array of permission codes', FIX);
  }
  for (const code of permissions as string[]) {
    if (!ctx.permissionCodes.has(code))
      throw configError(
        ctx,
        'permission_unknown',
        'write.permissions',
        `unknown permission "${code}"`,
        "Declare it in some plugin's `permissions`.",
      );
  }
  if (values === undefined) return;
  if (!Array.isArray(values) || values.length === 0 || !values.every(isScalar)) {
    throw configError(
      ctx,
      'field_option_invalid',
      'write.values',
      'must be a non-empty array of scalars',
      'Use for example `values: ["published"]`.',
    );
  }
  const options = field.options;
  if (options && isPlainObject(options)) {
    const missing = values.find((value) => !Object.hasOwn(options, String(value)));
    if (missing !== undefined) {
      throw configError(
        ctx,
        'field_options_conflict',
        'write.values',
        `${JSON.stringify(missing)} is not an option of the field`,
        `Use option keys: ${Object.keys(options).join(', ')}.`,
      );
    }
  }
}

/** Whether the principal may write the field: it has no rule, or the principal holds every code of it. */
export const mayWrite = (field: FieldConfig, principal: Principal | undefined): boolean =>
  field.write === undefined || hasPermissions(principal, field.write.permissions);

/** A JSON value with object keys sorted: two encodings compare equal when they hold the same value. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    isPlainObject(item)
      ? Object.fromEntries(
          Object.keys(item)
            .sort()
            .map((key) => [key, item[key]]),
        )
      : item,
  );
}

const sameScalar = (a: unknown, b: unknown) =>
  a === b || (a !== null && b !== null && isScalar(a) && isScalar(b) && String(a) === String(b));

export interface WriteCheckContext {
  mode: 'create' | 'update';
  /** The stored value on update (as the decode saw it). */
  current: unknown;
  principal: Principal;
  locales: readonly string[];
}

/**
 * The 403 refusal of a decoded value the principal may not write, or undefined. A value is written
 * when it differs from what the record holds (on create: the field's `default`, else nothing), both
 * compared in their encoded form; a virtual field (no stored value) is written whenever it decodes
 * to a value. With `values`, only a new value among them needs the permissions.
 */
export function writeRefusal(
  field: { config: FieldConfig; type: FieldType; relation?: RelationTarget },
  value: unknown,
  ctx: WriteCheckContext,
): FieldError | undefined {
  const rule = field.config.write;
  if (!rule || value === undefined || hasPermissions(ctx.principal, rule.permissions)) return undefined;
  const encode = (item: unknown) => field.type.encode(item, field.config, { locales: ctx.locales, relation: field.relation });
  const after = encode(value);
  if (field.type.storage !== 'virtual') {
    const before = encode(ctx.mode === 'create' ? (field.config.default ?? null) : ctx.current);
    if (canonical(after) === canonical(before)) return undefined;
  }
  if (rule.values === undefined) return new FieldError('forbidden', 'backend::fields.write.forbidden');
  if (!rule.values.some((item) => sameScalar(item, after))) return undefined;
  return new FieldError('forbidden', 'backend::fields.write.value_forbidden', { value: String(after) });
}
