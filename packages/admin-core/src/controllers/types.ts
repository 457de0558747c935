import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntitySchema } from '@mikro-orm/core';
import type { Principal } from '../auth/principal.ts';
import type { ControllerActions } from '../behaviors/actions/types.ts';
import type { PartialConfig } from '../behaviors/partials/types.ts';

/** A where-condition in MikroORM's query language; scopes return one, so they compose into SQL. */
export type Condition = Record<string, unknown>;

export interface ScopeContext {
  principal: Principal;
  em: EntityManager;
}

/** Who sees which rows: `undefined` means every row, `NO_ROWS` none. */
export type Scope = (ctx: ScopeContext) => Condition | undefined | Promise<Condition | undefined>;

export type RowState = 'deleted' | 'negative' | 'disabled';
export const ROW_STATES: readonly RowState[] = ['deleted', 'negative', 'disabled'];

export interface ListColumnConfig {
  label: string;
  type?: string;
  searchable?: boolean;
  sortable?: boolean;
  /** A relation property whose label the column shows. */
  relation?: string;
  /** For a relation column: the related property used as label (default `name`, then `title`). */
  select?: string;
  /** Money columns. */
  currency?: string;
  currencyFrom?: string;
}

export interface ListFilterConfig {
  /** `group` (pick values from `options`), `scope` (options served by the options route), `daterange`, `switch`, `text`. */
  type: 'group' | 'scope' | 'daterange' | 'switch' | 'text';
  label: string;
  /** Column (entity property) the filter applies to. */
  column?: string;
  /** For `group`: value to label key. */
  options?: Record<string, string>;
  /** For `scope`: a condition for a picked value, and the options offered. */
  scope?: (value: string, ctx: ScopeContext) => Condition | Promise<Condition>;
  scopeOptions?: (ctx: ScopeContext) => Promise<Array<{ label: string; value: string }>>;
  /** The relation model the options come from (informational, served as `modelClass`). */
  modelClass?: string;
  nameFrom?: string;
  trueValue?: string | number | boolean;
  falseValue?: string | number | boolean;
}

export interface ListConfig {
  title?: string;
  columns: Record<string, ListColumnConfig>;
  defaultSort?: { column: string; direction: 'asc' | 'desc' };
  recordsPerPage?: number;
  perPageOptions?: number[];
  filters?: Record<string, ListFilterConfig>;
  showSearch?: boolean;
  searchPrompt?: string;
  showCheckboxes?: boolean;
  showSetup?: boolean;
  showSorting?: boolean;
  noRecordsMessage?: string;
  recordUrl?: string;
  headerPartial?: string;
  bulkActions?: Array<{ name: string; label: string; confirm?: string }>;
  toolbar?: { buttons: string[] };
  rowActions?: Array<{ name: string; label?: string; url?: string }>;
  /** Row states of one record; unknown values are dropped. */
  rowStates?: (record: Record<string, unknown>) => readonly string[];
  /**
   * Scalar properties `rowStates` reads that are not list columns (for example `suspended_at`):
   * selected with the page, passed to `rowStates` by property name, never served.
   */
  rowStateColumns?: string[];
}

export type Scalar = string | number | boolean | null;

/** A form field as the plugin author declares it; every FormField key is accepted (docs/controllers.md, "FieldConfig"). */
export interface FieldConfig {
  type: string;
  label?: string;
  comment?: string;
  tab?: string;
  span?: 'auto' | 'left' | 'right' | 'full' | 'row';
  size?: string;
  required?: boolean;
  readOnly?: boolean;
  multiple?: boolean;
  context?: string | string[];
  default?: Scalar;
  attributes?: Record<string, Scalar>;
  /** Dropdown options: value to label key. */
  options?: Record<string, string>;
  emptyOption?: string;
  nameFrom?: string;
  relation?: string;
  preset?: { field: string; type: 'slug' | 'exact' };
  action?: string;
  actionLabel?: string;
  widget?: string;
  fill?: string[];
  path?: string;
  deferrable?: boolean;
  fileTypes?: string[];
  mimeTypes?: string[];
  maxFiles?: number;
  maxFilesize?: number;
  imageWidth?: number;
  imageHeight?: number;
  mode?: string;
  prompt?: string;
  protected?: boolean;
  useCaption?: boolean;
  thumbOptions?: { mode: string };
  format?: string;
  displayFormat?: string;
  minDate?: string;
  maxDate?: string;
  firstDay?: number;
  yearRange?: number[];
  ignoreTimezone?: boolean;
  twelveHour?: boolean;
  separator?: string;
  customTags?: boolean;
  /** Money (`currency`, `currencyFrom`, `scale`, `min`, `max`) and number (`min`, `max`, `step`): docs/field-types.md. */
  currency?: string;
  currencyFrom?: string;
  scale?: number;
  /** number: a number. money: a decimal string (may be negative), default "0"; `null` allows negative amounts. */
  min?: string | number | null;
  max?: string | number;
  /** number: the step from `min` (or 0) a value must be on. */
  step?: number;
  /** richeditor and markdown: the most UTF-8 bytes a value may have (default 512 KiB, at most 1 MiB). */
  maxBytes?: number;
  /** Plugin field types. */
  typeOptions?: Record<string, unknown>;
  element?: string;
  translatable?: boolean;
  /** Not a column: sent in a save body, never returned (password fields must be virtual). */
  virtual?: boolean;
  /** Entity property the field binds to (default: the field name). */
  property?: string;
  /** Relation fields: which related rows are candidates (and valid ids on save). */
  relationScope?: Scope;
  /** Relation fields: related ids the principal may neither add nor remove. */
  lockedIds?: (ctx: ScopeContext) => number[] | Promise<number[]>;
  /** Permission codes a permissioneditor field offers (default: every registered permission). */
  permissions?: string[];
  /** Who may set or change the value (docs/controllers.md, "Field-level write permissions"). */
  write?: FieldWriteRule;
}

/**
 * A field-level write permission: a save that sets or changes the field (to one of `values`, when
 * given) needs every code of `permissions`; without them it is a 403 naming the field, and the
 * form schema serves the field `readOnly`.
 */
export interface FieldWriteRule {
  permissions: string[];
  /** Only these new values need the permissions (a dropdown's option keys, say): `['published']`. */
  values?: Scalar[];
}

export interface FormConfig {
  name?: string;
  fields: Record<string, FieldConfig>;
  redirects?: {
    create?: { redirect?: string; redirectClose?: string };
    update?: { redirect?: string; redirectClose?: string };
    default?: string;
  };
  /** Message keys (plural forms allowed) overriding the defaults. */
  messages?: Partial<Record<'create' | 'deleteConfirm' | 'deleted' | 'edit' | 'preview' | 'saved' | 'update', string>>;
  preview?: { headerPartial: string };
}

export interface SaveContext extends ScopeContext {
  mode: 'create' | 'update';
  /** The validated values of the request, keyed by field name (virtual fields included). */
  values: Record<string, unknown>;
  /**
   * On update, the record's scalar properties as stored before this save (the record passed to
   * the hooks already holds the new values): compare with it to refuse a change, not a value.
   */
  previous?: Readonly<Record<string, unknown>>;
}

/** Named, typed hooks: no subclassing. */
export interface ControllerHooks<E = Record<string, unknown>> {
  /** Runs inside the save transaction before the flush; throw `Forbidden(...)` to refuse (403, rolled back). */
  beforeSave?: (record: E, ctx: SaveContext) => void | Promise<void>;
  /** Runs inside the save transaction after the flush. */
  afterSave?: (record: E, ctx: SaveContext) => void | Promise<void>;
  beforeDelete?: (record: E, ctx: ScopeContext) => void | Promise<void>;
}

export interface ControllerConfig<E = any> {
  /** The controller's path segment: `{vendor}/{plugin}/{name}`. */
  name: string;
  /** The MikroORM entity (made with `defineEntity`); its primary key is an integer `id`. */
  entity?: EntitySchema<E, any>;
  /** The principal needs all of these on every route. */
  permissions?: string[];
  /** A single-record form: list, create, bulk and delete routes answer 404. */
  singleton?: boolean;
  /** No create, update, delete or bulk delete route: the records are only read (docs/controllers.md, "Read-only controllers"). */
  readOnly?: boolean;
  /**
   * Soft delete: the delete routes set this timestamp column instead of removing the row. Scopes
   * should then exclude rows where it is set (the engine does not guess).
   */
  softDelete?: string;
  list?: ListConfig;
  form?: FormConfig;
  scopes?: { list?: Scope; form?: Scope };
  hooks?: ControllerHooks<E>;
  /** Record, bulk, toolbar and widget actions, registered by name (docs/actions.md). */
  actions?: ControllerActions<NoInfer<E>>;
  /** Partials by name (docs/partials.md). */
  partials?: Record<string, PartialConfig>;
}

/** Typed helper: returns its input. */
export const defineController = <E, const T extends ControllerConfig<E> = ControllerConfig<E>>(controller: T & ControllerConfig<E>): T =>
  controller;
