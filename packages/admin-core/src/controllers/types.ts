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
  /**
   * Runs `task` after the write's transaction has committed, never when it rolls back (an index
   * update, a notification; docs/controllers.md, "After the commit"). Absent where nothing writes.
   */
  afterCommit?: (task: () => void | Promise<void>) => void;
  /**
   * The values of a settings code (defaults applied, secrets decrypted), read through `em`, as an
   * action's `ctx.settings`. Absent where nothing writes.
   */
  settings?: (code: string) => Promise<Record<string, unknown>>;
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
  /** fileupload: files are served by public URLs (default true); `false` serves them only through the protected download route. */
  public?: boolean;
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
  /** hasMany and belongsToMany relations managed by `relation-manager` fields, by relation name (docs/relations.md). */
  relations?: Record<string, RelationConfig>;
  /** Drag-and-drop order of the list's records, flat or as a tree (docs/reorder.md). */
  reorder?: ReorderConfig;
}

/** The spec's reorder keys (docs/reorder.md). */
export interface ReorderConfig {
  /** String key or text. */
  title?: string;
  /** The property shown as a node's label (default `name`, `title`, `login` or `code`). */
  nameFrom?: string;
  /** Informational, served as is. */
  modelClass?: string;
  /** A tree: the belongsTo of the entity to itself (`parent` or its column `parent_id`); absent: a flat list. */
  parentColumn?: string;
  /** The integer property holding the position (default `sort_order`). */
  sortColumn?: string;
  /** A tree's deepest level (roots are level 1); 0 or absent: no limit. Above 0 on a flat reorder fails start-up. */
  maxDepth?: number;
  /** Which of the list's records are reordered together (say, one site's): a condition like a scope. */
  partition?: Scope;
}

/** What a relation manager may do; the routes of an operation not declared answer 404 (docs/relations.md). */
export type RelationButton = 'create' | 'update' | 'delete' | 'link' | 'unlink';

/** The columns of a relation panel's list: columns of the related entity, as a controller list declares them. */
export interface RelationListConfig {
  columns: Record<string, ListColumnConfig>;
  defaultSort?: { column: string; direction: 'asc' | 'desc' };
  recordsPerPage?: number;
  perPageOptions?: number[];
}

export interface RelationPanelConfig {
  list: RelationListConfig;
  showSearch?: boolean;
  toolbarButtons?: RelationButton[];
}

export const RELATION_MESSAGE_KEYS = [
  'candidateSearch',
  'create',
  'createSubmit',
  'createTitle',
  'created',
  'deleteConfirm',
  'deleteOneConfirm',
  'deleteSelected',
  'deleted',
  'editPivot',
  'empty',
  'link',
  'linkHint',
  'linkSubmit',
  'linked',
  'pivotSaved',
  'pivotSubmit',
  'pivotTitle',
  'previewTitle',
  'unlinkConfirm',
  'unlinkSelected',
  'unlinked',
  'updateSubmit',
  'updateTitle',
  'updated',
] as const;
export type RelationMessageKey = (typeof RELATION_MESSAGE_KEYS)[number];

/**
 * A hasMany or belongsToMany relation of the controller's entity, managed by a `relation-manager`
 * field (docs/relations.md): what the panel lists, what it may do, the child's forms and the
 * pivot's form.
 */
export interface RelationConfig {
  /** String key or text; default: the relation-manager field's label. */
  label?: string;
  /** A controller (`vendor/plugin/name`) whose list scope limits the related rows; default: every row. */
  controller?: string;
  /** The panel on the parent's form: the linked rows and the toolbar. */
  view: RelationPanelConfig;
  /** The picker of rows to link (its columns; default: the view's). */
  manage?: Partial<RelationPanelConfig>;
  /** The child's form for create and update (built-in field types but relation-manager). */
  manageForm?: { fields: Record<string, FieldConfig> };
  /** A read-only form for previewing a child. */
  viewForm?: { fields: Record<string, FieldConfig> };
  /** belongsToMany through a pivot entity: the pivot columns an admin may edit. */
  pivot?: { form: { fields: Record<string, FieldConfig> } };
  /** RelationMessages overrides (string keys or text). */
  messages?: Partial<Record<RelationMessageKey, string>>;
}

/** Typed helper: returns its input. */
export const defineController = <E, const T extends ControllerConfig<E> = ControllerConfig<E>>(controller: T & ControllerConfig<E>): T =>
  controller;
