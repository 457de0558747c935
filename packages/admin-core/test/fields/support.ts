import { ConfigError, type ConfigErrorCode } from '../../src/errors/config.ts';
import { coreStrings } from '../../src/i18n/core-strings.ts';
import { Strings } from '../../src/i18n/strings.ts';
import {
  FieldError,
  type FieldCheckContext,
  type FieldConfig,
  type FieldDecodeContext,
  type FieldType,
  type PropertyInfo,
} from '../../src/fields/index.ts';
import type { FieldSettings } from '../../src/controllers/types.ts';
import type { Principal } from '../../src/auth/principal.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PermissionDefinition } from '../../src/plugins/define.ts';

const LOCALES = ['en', 'de'] as const;

export const strings = (() => {
  const s = new Strings(LOCALES, 'en');
  s.add('backend', coreStrings);
  return s;
})();

export function principal(options: { superuser?: boolean; own?: Record<string, number>; role?: Record<string, number> } = {}): Principal {
  return {
    kind: 'session',
    admin: {
      id: 1,
      login: 'ada',
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'L',
      subtitle: '',
      isSuperuser: options.superuser ?? false,
      permissions: options.own ?? {},
      metadata: {},
      role: options.role ? { id: 1, code: 'editor', name: 'Editor', permissions: options.role } : null,
    },
  };
}

export const property = (columnType: string, extra: Partial<PropertyInfo> = {}): PropertyInfo => ({
  name: 'prop',
  type: 'string',
  columnTypes: [columnType],
  nullable: false,
  kind: 'scalar',
  ...extra,
});

export interface DecodeOptions extends Partial<Omit<FieldDecodeContext, 'notice'>> {
  notices?: string[];
}

/** A decode context without a database: types that need one get a fake lookup instead (relation). */
export function decodeContext(options: DecodeOptions = {}): FieldDecodeContext {
  const { notices = [], ...rest } = options;
  return {
    field: 'field',
    mode: 'create',
    current: undefined,
    values: {},
    em: undefined as unknown as EntityManager,
    principal: principal({ superuser: true }),
    locales: LOCALES,
    strings,
    locale: 'en',
    notice: (message) => notices.push(message),
    ...rest,
  };
}

export const checkContext = (extra: Partial<FieldCheckContext> = {}): FieldCheckContext => ({
  plugin: 'acme.catalog',
  controller: 'acme/catalog/products',
  field: 'price',
  permissionCodes: new Set(['acme.catalog.manage', 'cms.backend.manage_admins']),
  locales: LOCALES,
  ...extra,
});

/** Decodes and returns the value, or the FieldError as `{ code, messageKey, params, status }`. */
export async function decode(type: FieldType, value: unknown, field: Partial<FieldSettings> = {}, ctx: DecodeOptions = {}) {
  try {
    return { value: await type.decode(value, { type: type.name, ...field } as FieldConfig, decodeContext(ctx)) };
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    return { code: error.code, messageKey: error.messageKey, params: error.params, status: error.status };
  }
}

/**
 * The code and key of the ConfigError of `check()` (docs/errors.md, "Start-up errors"), or undefined
 * when the config passes: tests assert these, not the message.
 */
export function checkError(
  type: FieldType,
  field: Partial<FieldSettings>,
  ctx: Partial<FieldCheckContext> = {},
): { code: ConfigErrorCode; key: string | undefined } | undefined {
  try {
    type.check?.({ type: type.name, ...field } as FieldConfig, checkContext(ctx));
    return undefined;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { code: error.code, key: error.where.key };
  }
}

/** The ConfigError message of `check()`, or undefined when the config passes. */
export function checkMessage(type: FieldType, field: Partial<FieldSettings>, ctx: Partial<FieldCheckContext> = {}): string | undefined {
  try {
    type.check?.({ type: type.name, ...field } as FieldConfig, checkContext(ctx));
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

export const permissionDefinitions = (list: PermissionDefinition[]): ReadonlyMap<string, PermissionDefinition> =>
  new Map(list.map((p) => [p.code, p]));

export const t = (key: string, params?: Record<string, string | number>) => strings.t('en', key, params);
