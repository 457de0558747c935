import type { EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../auth/principal.ts';
import { ERROR_CODES, isErrorCode, STATUS_BY_KIND, type FieldErrorCode, type FieldErrorKind } from '../errors/codes.ts';
import type { PermissionDefinition } from '../plugins/types.ts';
import type { Strings } from '../i18n/strings.ts';
import type { FieldConfig, Scalar } from '../controllers/types.ts';
import type { Schema } from '../schema/types.ts';

/**
 * What a field type provides: one module per type with its start-up check, its schema keys, and
 * how a value is decoded (and validated) on save and encoded into a record (docs/field-types.md).
 * Plugin field types are turned into the same shape (`toFieldType` in `fields/plugin/field-type.ts`).
 */
export interface FieldType {
  /** The `type` value in a form config. */
  name: string;
  /**
   * Where the value lives: `column` (a scalar or json property of the entity), `relation`
   * (belongsTo / belongsToMany, values are ids), `virtual` (sent in a save body, never stored or
   * returned by the engine: the controller's hooks use it), `none` (no value at all: never part of
   * a save body; partial, widget, relation-manager).
   */
  storage: 'column' | 'relation' | 'virtual' | 'none';
  /**
   * Config keys this type reads beyond the general ones (`checkFieldConfig` refuses a key that
   * neither the general list nor the type names). Plugin types without a list get `typeOptions`,
   * `element` and `translatable`.
   */
  keys?: readonly string[];
  /** Start-up check of the field config; throw `ConfigError.at(...)` naming the key. */
  check?(field: FieldConfig, ctx: FieldCheckContext): void;
  /** FormField keys this type adds to the served schema (already localized where they are labels). */
  schema?(field: FieldConfig, ctx: FieldSchemaContext): Record<string, unknown>;
  /**
   * Turns a submitted value into the value to store, or throws `FieldError`. `current` is the
   * stored value on update (undefined on create). Runs inside the save transaction.
   *
   * The engine calls it for every writable field on create (`value` is `undefined` when the key is
   * absent, so `required` is enforced here) and for every key present in the body on update.
   * A result of `undefined` means "leave the property alone" (an absent optional value on create,
   * an empty password on update).
   */
  decode(value: unknown, field: FieldConfig, ctx: FieldDecodeContext): unknown | Promise<unknown>;
  /** Turns a stored value into its JSON form in a record. */
  encode(value: unknown, field: FieldConfig, ctx: FieldEncodeContext): unknown;
  /**
   * The JSON schema of what `encode` serves in a record, for the OpenAPI document
   * (docs/field-types.md, "Value schemas"). Without it the value is described as any JSON value.
   */
  recordSchema?(field: FieldValueSource, locales: readonly string[]): Schema | undefined;
  /** The JSON schema of what `decode` accepts in a save body; without it, any JSON value. */
  inputSchema?(field: FieldValueSource, locales: readonly string[]): Schema | undefined;
}

/**
 * What the value schemas read of a resolved field: its config, the bound property's column
 * metadata (MikroORM's `EntityProperty` fits) and a relation's kind. A structural type, so that
 * `fields/` needs nothing from the controllers' resolved configuration.
 */
export interface FieldValueSource {
  config: FieldConfig;
  property?: { columnTypes?: readonly string[]; nullable?: boolean; runtimeType?: string };
  relation?: Pick<RelationTarget, 'kind'>;
}

/**
 * MikroORM metadata of a bound property: `kind` is MikroORM's `ReferenceKind` (`scalar`, `m:1`,
 * `m:n`, ...), `columnTypes` as the schema generator writes them (`numeric(12,2)`, `timestamptz`,
 * `time(0)`), `runtimeType` the JS type MikroORM hydrates (`string`, `number`, `Date`).
 */
export interface PropertyInfo {
  name: string;
  type: string;
  columnTypes: string[];
  nullable: boolean;
  kind: string;
  targetEntity?: string;
  runtimeType?: string;
}

export interface FieldCheckContext {
  plugin: string;
  controller: string;
  field: string;
  /** MikroORM metadata of the bound property, when the field binds one. */
  property?: PropertyInfo;
  /** Every permission code registered (for permissioneditor). */
  permissionCodes: ReadonlySet<string>;
  locales: readonly string[];
  /** The sibling fields of the form, when known: cross-field keys (`currencyFrom`, `preset.field`, `fill`) are checked against them. */
  fields?: Readonly<Record<string, FieldConfig>>;
  /** Where the form is declared, for messages: `form` (default), `relations.comments.manageForm`. */
  form?: string;
}

export interface FieldSchemaContext {
  t(key: string, params?: Record<string, string | number>): string;
  locale: string;
  locales: readonly string[];
  /** Registered permissions with their label and tab keys (permissioneditor serves them grouped). */
  permissions?: ReadonlyMap<string, PermissionDefinition>;
  /** Who asks: permissioneditor marks the codes this principal may not change as `locked`. */
  principal?: Principal;
  /** For `relation` fields: a belongsToMany serves `multiple: true`. */
  relation?: RelationTarget;
}

/** The target of a relation field, from MikroORM metadata (`m:1` is belongsTo, `m:n` belongsToMany). */
export interface RelationTarget {
  entity: EntityName<any>;
  kind: 'belongsTo' | 'belongsToMany';
  /** The related property used as label (`nameFrom`, else `name`, else `title`). */
  labelProperty?: string;
}

export interface FieldDecodeContext {
  field: string;
  mode: 'create' | 'update';
  current: unknown;
  /** All submitted values (for `currencyFrom` and similar cross-field rules). */
  values: Record<string, unknown>;
  em: EntityManager;
  principal: Principal;
  locales: readonly string[];
  strings: Strings;
  locale: string;
  /**
   * Notices a type reports (for example "the HTML was sanitized"): served in `meta.notices`.
   * `message` is localized; `locale` is the locale of the value concerned (default: the request's).
   */
  notice(message: string, locale?: string): void;
  /** The bound property (as in `FieldCheckContext`): tells e.g. whether an empty value may be null. */
  property?: PropertyInfo;
  /** Required for `relation` fields: what the ids point at. */
  relation?: RelationTarget;
  /** Registered permissions: a permissioneditor without `permissions` offers all of them. */
  permissions?: ReadonlyMap<string, PermissionDefinition>;
}

export interface FieldEncodeContext {
  locales: readonly string[];
  /** For `relation` fields: an empty belongsToMany encodes as `[]`, an empty belongsTo as `null`. */
  relation?: RelationTarget;
}

/**
 * A field-level refusal: `code` is the field type's error code (`money.invalid`, `taglist.invalid`,
 * or `validation_failed`; docs/errors.md, "The code of a failed save"), `messageKey` a string key.
 * Collected into the 422 `details`. Its `kind` is `forbidden` for a refusal that must answer 403
 * before anything is written (locked ids): a core code's kind comes from the table
 * (`errors/codes.ts`: `forbidden` is a 403), a plugin code's from `kind` (default `validation`).
 */
export class FieldError extends Error {
  readonly code: FieldErrorCode;
  readonly messageKey: string;
  readonly params: Record<string, string | number>;
  readonly kind: FieldErrorKind;

  constructor(code: FieldErrorCode, messageKey: string, params: Record<string, string | number> = {}, kind: FieldErrorKind = 'validation') {
    super(`${code}: ${messageKey}`);
    this.name = 'FieldError';
    this.code = code;
    this.messageKey = messageKey;
    this.params = params;
    this.kind = isErrorCode(code) ? (ERROR_CODES[code].kind === 'forbidden' ? 'forbidden' : 'validation') : kind;
  }

  get status(): 422 | 403 {
    return STATUS_BY_KIND[this.kind];
  }
}

export type { FieldConfig, FieldErrorCode, FieldErrorKind, Scalar };
