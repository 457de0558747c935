import { hasPermission } from '../auth/permissions.ts';
import { FieldError } from './types.ts';
import { baseColumnType, configError, invalid, isPlainObject, must, requiredError } from './common.ts';
import type { Principal } from '../auth/principal.ts';
import type { PermissionDefinition } from '../plugins/types.ts';
import type { FieldConfig, FieldDecodeContext, FieldSchemaContext, FieldType } from './types.ts';
import { integer, mapOf } from '../schema/json.ts';

type Mode = 'radio' | 'checkbox';
/** radio: per-admin overrides, 1 grants and -1 denies; checkbox: role grants, 1 only. Unset = key absent. */
const VALUES: Record<Mode, readonly number[]> = { radio: [1, -1], checkbox: [1] };
const modeOf = (field: FieldConfig): Mode => (field.mode as Mode | undefined) ?? 'radio';

/**
 * The locking rule: a non-superuser may neither grant nor deny (nor clear) a permission they do
 * not hold themselves. Otherwise anyone who may edit admins or roles could hand out, or take
 * away from others, rights they were never given; a superuser holds every permission, so nothing
 * is locked for them.
 */
export const isLockedFor = (principal: Principal | undefined, code: string): boolean =>
  !principal?.admin.isSuperuser && !hasPermission(principal, code);

/** The codes the field offers: `permissions`, else every registered permission. */
function offeredCodes(field: FieldConfig, registered: ReadonlyMap<string, PermissionDefinition> | undefined): string[] {
  if (field.permissions) return field.permissions;
  if (!registered) throw new Error('permissioneditor: the engine must pass the registered `permissions` in the field context');
  return [...registered.keys()];
}

/** A stored permission map (json column, maybe read as text). */
export function storedPermissions(value: unknown): Record<string, number> {
  let stored = value;
  if (typeof stored === 'string') {
    try {
      stored = JSON.parse(stored);
    } catch {
      return {};
    }
  }
  if (!isPlainObject(stored)) return {};
  return Object.fromEntries(Object.entries(stored).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
}

/**
 * Decodes a submitted map against the stored one. Absent offered codes are unset. Stored codes
 * that are not offered are kept, and may be sent back unchanged (a record serves the whole map).
 * 422 before 403: a malformed body is reported as such even when it also touches a locked code.
 */
export function decodePermissions(
  value: unknown,
  field: FieldConfig,
  ctx: Pick<FieldDecodeContext, 'current' | 'principal' | 'permissions' | 'mode'>,
): Record<string, number> | undefined {
  if (value === undefined) {
    if (field.required && ctx.mode === 'create') throw requiredError();
    return undefined;
  }
  if (!isPlainObject(value)) throw invalid('backend::validation.object');
  const offered = new Set(offeredCodes(field, ctx.permissions));
  const current = storedPermissions(ctx.current);
  const allowed = VALUES[modeOf(field)];
  const next: Record<string, number> = {};
  for (const [code, v] of Object.entries(current)) if (!offered.has(code)) next[code] = v;
  for (const [code, v] of Object.entries(value)) {
    if (!offered.has(code)) {
      if (current[code] === v) continue; // a kept code sent back as served
      throw new FieldError('validation_failed', 'backend::fields.permissions.unknown', { code });
    }
    if (typeof v !== 'number' || !allowed.includes(v)) {
      throw new FieldError('validation_failed', 'backend::fields.permissions.value', { code, values: allowed.join(', ') });
    }
    next[code] = v;
  }
  for (const code of offered) {
    if (current[code] !== next[code] && isLockedFor(ctx.principal, code)) {
      throw new FieldError('forbidden', 'backend::fields.permissions.locked', { code });
    }
  }
  if (field.required && Object.keys(next).length === 0) throw requiredError();
  return next;
}

/** The offered permissions grouped by tab, tabs in order of first appearance, `order` within. */
export function permissionTabs(field: FieldConfig, ctx: FieldSchemaContext) {
  const registered = ctx.permissions ?? new Map<string, PermissionDefinition>();
  const definitions = offeredCodes(field, registered)
    .map((code) => registered.get(code) ?? { code, label: code })
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  const tabs = new Map<string, Array<{ code: string; label: string; locked?: true }>>();
  for (const definition of definitions) {
    const tab = ctx.t(definition.tab ?? 'backend::fields.permissions.tab_other');
    const entry: { code: string; label: string; locked?: true } = { code: definition.code, label: ctx.t(definition.label) };
    if (ctx.principal && isLockedFor(ctx.principal, definition.code)) entry.locked = true;
    (tabs.get(tab) ?? tabs.set(tab, []).get(tab)!).push(entry);
  }
  return [...tabs].map(([label, permissions]) => ({ label, permissions }));
}

/**
 * An object of permission code to value. The schema serves `mode` and `permissionTabs`:
 * `[{ label, permissions: [{ code, label, locked? }] }]`, labels localized; `locked` marks the
 * codes the asking principal may not change (see `isLockedFor`).
 */
export const permissioneditorField: FieldType = {
  name: 'permissioneditor',
  storage: 'column',
  keys: ['mode', 'permissions'],
  check(field, ctx) {
    must.oneOf(ctx, 'mode', field.mode, ['radio', 'checkbox']);
    must.stringArray(ctx, 'permissions', field.permissions);
    const unknown = field.permissions?.find((code) => !ctx.permissionCodes.has(code));
    if (unknown !== undefined) {
      throw configError(
        ctx,
        'permission_unknown',
        'permissions',
        `"${unknown}" is not a registered permission`,
        "Declare it in some plugin's `permissions`, or remove it from the list.",
      );
    }
    if (field.default !== undefined)
      throw configError(ctx, 'field_option_invalid', 'default', 'a permissioneditor cannot have a scalar default', 'Remove `default`.');
    const column = baseColumnType(ctx);
    if (column && column !== 'json' && column !== 'jsonb') {
      throw configError(
        ctx,
        'field_column_mismatch',
        undefined,
        `permissions are stored as a json object, but "${ctx.property!.name}" is a ${column} column`,
        'Bind a json property (`p.json()`).',
      );
    }
  },
  schema: (field, ctx) => ({ mode: modeOf(field), permissionTabs: permissionTabs(field, ctx) }),
  decode: decodePermissions,
  encode: (value) => storedPermissions(value),
  recordSchema: () => mapOf(integer(), { description: 'Permission code to value.' }),
  inputSchema: (field) =>
    mapOf(integer({ enum: field.config.mode === 'checkbox' ? [1] : [1, -1] }), { description: 'Permission code to value.' }),
};
