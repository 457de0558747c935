import type { EntityManager } from '@mikro-orm/postgresql';
import type { Collection, EntitySchema, Reference } from '@mikro-orm/core';
import type { Principal } from '../auth/principal.ts';
import type { ControllerActions } from './action-config.ts';
import type { DuplicateConfig } from './duplicate-config.ts';
import type { PartialConfig } from './partial-config.ts';

/**
 * The property names of an entity type: what list columns, filters, sort, scopes and the other
 * property-naming keys accept, so that a typo is a compile error at the line with the typo
 * (docs/controllers.md, "Typed keys"). Without a known entity type (`any`), any string.
 */
export type EntityKey<E> = unknown extends E ? string : Extract<keyof E, string>;

/**
 * The entity a relation property points at (`Collection<T>`, `Ref<T>` or `T` itself); `any` for
 * a scalar, so keys of the related entity are only checked where the property is a relation.
 */
type RelatedEntity<V> =
  NonNullable<V> extends Collection<infer T, any>
    ? T
    : NonNullable<V> extends Reference<infer T>
      ? T
      : NonNullable<V> extends Date | string | number | boolean | bigint | readonly unknown[]
        ? any
        : NonNullable<V> extends object
          ? NonNullable<V>
          : any;

/**
 * A where-condition in MikroORM's query language; scopes return one, so they compose into SQL.
 * Its keys are the entity's properties (and `$and`, `$or`, `$not`); the values are MikroORM's.
 */
export type Condition<E = any> = { [K in EntityKey<E>]?: unknown } & {
  $and?: Condition<E>[];
  $or?: Condition<E>[];
  $not?: Condition<E>;
};

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

/** What the hooks receive (every write has both; docs/controllers.md, "After the commit"). */
export interface WriteContext extends ScopeContext {
  afterCommit: (task: () => void | Promise<void>) => void;
  settings: (code: string) => Promise<Record<string, unknown>>;
}

/** Who sees which rows: `undefined` means every row, `NO_ROWS` none. */
export type Scope<E = any> = (ctx: ScopeContext) => Condition<E> | undefined | Promise<Condition<E> | undefined>;

export type RowState = 'deleted' | 'negative' | 'disabled';
export const ROW_STATES: readonly RowState[] = ['deleted', 'negative', 'disabled'];

/** A list column; `R` is the related entity of a relation column (its `select` names one of its properties). */
export interface ListColumnConfig<E = any, R = any> {
  /** String key or text; default: the property's default label (docs/controllers.md, "Defaults from the entity"). */
  label: string;
  type?: string;
  searchable?: boolean;
  sortable?: boolean;
  /** A relation property whose label the column shows. */
  relation?: EntityKey<E>;
  /** For a relation column: the related property used as label (default `name`, then `title`). */
  select?: EntityKey<R>;
  /** Money columns. */
  currency?: string;
  currencyFrom?: string;
}

export type ListFilterConfig<E = any> = {
  /** `group` (pick values from `options`), `scope` (options served by the options route), `daterange`, `switch`, `text`. */
  type: 'group' | 'scope' | 'daterange' | 'switch' | 'text';
  label: string;
  /** Column (entity property) the filter applies to. */
  column?: EntityKey<E>;
  /** For `group`: value to label key. */
  options?: Record<string, string>;
  /** For `scope`: a condition for a picked value, and the options offered. */
  scope?: (value: string, ctx: ScopeContext) => Condition<E> | Promise<Condition<E>>;
  scopeOptions?: (ctx: ScopeContext) => Promise<Array<{ label: string; value: string }>>;
  /** The relation model the options come from (informational, served as `modelClass`). */
  modelClass?: string;
  nameFrom?: string;
  trueValue?: string | number | boolean;
  falseValue?: string | number | boolean;
};

/** A list's columns: keyed by entity property (docs/controllers.md, "Columns"). */
type ListColumns<E = any> = unknown extends E
  ? Record<string, ListColumnConfig>
  : { [K in EntityKey<E>]?: ListColumnConfig<E, K extends keyof E ? RelatedEntity<E[K]> : any> };

/** Columns as declared: every key optional, defaulted from the entity's property. */
type ColumnRecord<E = any> = unknown extends E
  ? Record<string, Partial<ListColumnConfig>>
  : { [K in EntityKey<E>]?: Partial<ListColumnConfig<E, K extends keyof E ? RelatedEntity<E[K]> : any>> };

/**
 * A list's columns as a plugin declares them (docs/controllers.md, "Defaults from the entity"):
 * by property, each with any keys to override, or a list of property names and such objects in
 * the order shown (`['title', 'starts_at', { capacity: { sortable: true } }]`).
 */
type ListColumnsDeclaration<E = any> = ColumnRecord<E> | ReadonlyArray<EntityKey<E> | ColumnRecord<E>>;

/** A filter as declared: `type` and `label` default from the property the filter is named after (or its `column`). */
type ListFilterDeclaration<E = any> = Partial<ListFilterConfig<E>>;

/** A list as a plugin declares it: columns and filters may leave to the entity what it knows. */
export type ListDeclaration<E = any> = Omit<ListConfig<E>, 'columns' | 'filters'> & {
  columns: ListColumnsDeclaration<E>;
  filters?: Record<string, ListFilterDeclaration<E>>;
};

/** A list (a type rather than an interface, so that code may read it as a `Record<string, unknown>`). */
export type ListConfig<E = any> = {
  title?: string;
  columns: ListColumns<E>;
  defaultSort?: { column: EntityKey<E>; direction: 'asc' | 'desc' };
  /** The page size when the request names none: one of `perPageOptions` (a value outside the defaults is added to them). */
  recordsPerPage?: number;
  perPageOptions?: number[];
  filters?: Record<string, ListFilterConfig<E>>;
  showSearch?: boolean;
  searchPrompt?: string;
  showCheckboxes?: boolean;
  showSetup?: boolean;
  showSorting?: boolean;
  noRecordsMessage?: string;
  recordUrl?: string;
  headerPartial?: string;
  /** Orders and hides the bulk actions of `actions.bulk` (all are offered without it); label and confirm here win (docs/actions.md). */
  bulkActions?: Array<{ name: string; label?: string; confirm?: string }>;
  toolbar?: { buttons: string[] };
  rowActions?: Array<{ name: string; label?: string; url?: string }>;
  /** Row states of one record; unknown values are dropped. */
  rowStates?: (record: Record<string, unknown>) => readonly string[];
  /**
   * Scalar properties `rowStates` reads that are not list columns (for example `suspended_at`):
   * selected with the page, passed to `rowStates` by property name, never served.
   */
  rowStateColumns?: EntityKey<E>[];
};

export type Scalar = string | number | boolean | null;

/**
 * The keys every field may have, whatever its type (`GENERAL_FIELD_KEYS` in fields/config.ts;
 * docs/controllers.md, "FieldConfig").
 */
interface FieldConfigBase {
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
  /** Not a column: sent in a save body, never returned (password fields must be virtual). */
  virtual?: boolean;
  /** Entity property the field binds to (default: the field name). */
  property?: string;
  /** Who may set or change the value (docs/controllers.md, "Field-level write permissions"). */
  write?: FieldWriteRule;
  /** Cross-field rules (docs/field-types.md, "Cross-field rules"): the value must be later than / earlier than another field's. */
  after?: string;
  before?: string;
  /** A field's own rule: return a message (key or text) to refuse the value, nothing to accept it. */
  validate?: (value: unknown, values: Readonly<Record<string, unknown>>) => string | undefined | Promise<string | undefined>;
}

/** `preset` of text and mltext fields: the value follows another field (as a slug, or as is). */
interface FieldPreset {
  field: string;
  type: 'slug' | 'exact';
}

/** A type that reads only the general keys. */
type NoOwnKeys = Record<never, never>;

/**
 * The keys each built-in field type reads beyond the general ones: the `keys` of its module in
 * fields/ (docs/field-types.md). A key of another type is a compile error on that key.
 */
interface BuiltinFieldKeys {
  text: { preset?: FieldPreset };
  mltext: { preset?: FieldPreset };
  textarea: NoOwnKeys;
  /** number: `min`, `max` and `step` are enforced on save. */
  number: { min?: number; max?: number; step?: number };
  /** money: `min` and `max` are decimal strings (or numbers); `min: null` allows negative amounts. */
  money: { currency?: string; currencyFrom?: string; scale?: number; min?: string | number | null; max?: string | number };
  /** Dropdown options: value to label key. */
  dropdown: { options?: Record<string, string>; emptyOption?: string };
  relation: {
    /** The related entity's text property used as label (default `name`, `title`, `login` or `code`). */
    nameFrom?: string;
    emptyOption?: string;
    /** Which related rows are candidates (and valid ids on save). */
    relationScope?: Scope;
    /** Related ids the principal may neither add nor remove. */
    lockedIds?: (ctx: ScopeContext) => number[] | Promise<number[]>;
  };
  'relation-manager': { relation?: string; deferrable?: boolean };
  fileupload: {
    mode?: 'image' | 'file';
    fileTypes?: string[];
    mimeTypes?: string[];
    maxFiles?: number;
    maxFilesize?: number;
    imageWidth?: number;
    imageHeight?: number;
    prompt?: string;
    protected?: boolean;
    /** Files are served by public URLs (default true); `false` serves them only through the protected download route. */
    public?: boolean;
    useCaption?: boolean;
    thumbOptions?: { mode: string };
    /** Image mode: store images with their metadata (EXIF, XMP, …) as uploaded; by default it is removed (docs/files.md, "Metadata"). */
    keepMetadata?: boolean;
  };
  datepicker: {
    mode?: 'date' | 'datetime' | 'time';
    format?: string;
    displayFormat?: string;
    minDate?: string;
    maxDate?: string;
    firstDay?: number;
    yearRange?: number[];
    ignoreTimezone?: boolean;
    twelveHour?: boolean;
  };
  partial: { path?: string };
  widget: {
    action?: string;
    actionLabel?: string;
    widget?: string;
    fill?: string[];
    /** Client files of the widget's element: keys of the plugin's `assets` (docs/field-types.md, "widget"). */
    assets?: { scripts?: string[]; styles?: string[] };
  };
  password: NoOwnKeys;
  /** Permission codes the editor offers (default: every registered permission). */
  permissioneditor: { mode?: string; permissions?: string[] };
  taglist: { mode?: 'string' | 'array'; separator?: string; customTags?: boolean; options?: Record<string, string> };
  /** The most UTF-8 bytes a value may have (default 512 KiB, at most 1 MiB). */
  richeditor: { maxBytes?: number };
  /** `uploadRoute`: where the editor uploads images, a path on the admin's origin (docs/field-types.md, "richeditor and markdown"). */
  markdown: { maxBytes?: number; uploadRoute?: string };
}

/**
 * Every key a field of some type may have, each with the union of its types: a field as code
 * that handles any type reads it (a `FieldConfig` is one). Not for declaring fields.
 */
export type FieldSettings = { type: string } & FieldConfigBase & {
    [K in OwnFieldKey]?: Exclude<OwnFieldValue<K>, undefined>;
  };

type OwnFieldValue<K extends PropertyKey> =
  | { [N in BuiltinFieldTypeName]: K extends keyof BuiltinFieldKeys[N] ? BuiltinFieldKeys[N][K] : never }[BuiltinFieldTypeName]
  | (K extends keyof PluginFieldKeys ? PluginFieldKeys[K] : never);

/** The keys of a plugin field type (`PLUGIN_FIELD_KEYS` in fields/config.ts; docs/field-types.md, "Plugin field types"). */
interface PluginFieldKeys {
  /** The options the plugin field type declares, checked at start-up. */
  typeOptions?: Record<string, unknown>;
  element?: string;
  translatable?: boolean;
}

type BuiltinFieldTypeName = keyof BuiltinFieldKeys;

type OwnFieldKey = { [N in BuiltinFieldTypeName]: keyof BuiltinFieldKeys[N] }[BuiltinFieldTypeName] | keyof PluginFieldKeys;

/**
 * The other types' keys, each typed `never` (an error on that key, never a long union error),
 * and readable on any field (`field.scale` is `undefined` where the type has no `scale`).
 */
type OtherFieldKeys<Own> = {
  [K in Exclude<OwnFieldKey, keyof Own>]?: never;
};

type FieldVariant<N extends string, Own> = { type: N } & FieldConfigBase & Own & OtherFieldKeys<Own>;

/** A built-in field type's config: the general keys and its own. */
type BuiltinFieldConfig<N extends BuiltinFieldTypeName = BuiltinFieldTypeName> = {
  [T in N]: FieldVariant<T, BuiltinFieldKeys[T]>;
}[N];

/**
 * A field of a plugin field type (any other `type`: `color`, the core's `switch` and `checkbox`):
 * the general keys, `typeOptions`, `element` and `translatable`.
 */
type PluginFieldConfig = FieldVariant<string, PluginFieldKeys>;

/**
 * A form field as the plugin author declares it: a union discriminated by `type`, so each type
 * accepts its own keys and a key of another type (`scale` on a text field) is an error naming
 * that key (docs/controllers.md, "FieldConfig").
 */
export type FieldConfig = BuiltinFieldConfig | PluginFieldConfig;

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

/**
 * A form's fields by name. A field named after a relation property of the entity has its
 * `nameFrom` checked against the related entity's properties (docs/controllers.md, "Typed keys").
 */
type FormFields<E = any> = unknown extends E
  ? Record<string, FieldConfig>
  : Record<string, FieldConfig> & { [K in EntityKey<E>]?: FieldConfig & RelatedNameFrom<K extends keyof E ? RelatedEntity<E[K]> : any> };

type RelatedNameFrom<R> = unknown extends R ? unknown : { nameFrom?: EntityKey<R> };

/**
 * A field whose type the entity's property gives (docs/controllers.md, "Defaults from the
 * entity"): any key of some type; the start-up check refuses a key the defaulted type does not read.
 */
type UntypedField = { type?: undefined } & FieldConfigBase & { [K in OwnFieldKey]?: Exclude<OwnFieldValue<K>, undefined> };

/** A field as declared: a `FieldConfig`, or without `type` where the field binds an entity property. */
export type FieldDeclaration = FieldConfig | UntypedField;

type FieldRecord<E = any> = unknown extends E
  ? Record<string, FieldDeclaration>
  : Record<string, FieldDeclaration> & {
      [K in EntityKey<E>]?: FieldDeclaration & RelatedNameFrom<K extends keyof E ? RelatedEntity<E[K]> : any>;
    };

/**
 * A form's fields as a plugin declares them: by name, or a list of property names and such
 * objects in the order shown (`['title', 'slug', { capacity: { min: 1 } }]`).
 */
type FieldsDeclaration<E = any> = FieldRecord<E> | ReadonlyArray<EntityKey<E> | FieldRecord<E>>;

/** A form as a plugin declares it. */
export type FormDeclaration<E = any> = Omit<FormConfig<E>, 'fields'> & { fields: FieldsDeclaration<E> };

export interface FormConfig<E = any> {
  name?: string;
  fields: FormFields<E>;
  redirects?: {
    create?: { redirect?: string; redirectClose?: string };
    update?: { redirect?: string; redirectClose?: string };
    default?: string;
  };
  /** Message keys (plural forms allowed) overriding the defaults. */
  messages?: Partial<Record<'create' | 'deleteConfirm' | 'deleted' | 'edit' | 'preview' | 'saved' | 'update', string>>;
  preview?: { headerPartial: string };
}

export interface SaveContext extends WriteContext {
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
  beforeDelete?: (record: E, ctx: WriteContext) => void | Promise<void>;
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
  softDelete?: EntityKey<NoInfer<E>>;
  list?: ListDeclaration<NoInfer<E>>;
  form?: FormDeclaration<NoInfer<E>>;
  /**
   * Which rows the list and the form see: a function of the principal, or a fixed condition
   * (checked against the entity at start-up; docs/controllers.md, "Scopes").
   */
  scopes?: { list?: Scope<NoInfer<E>> | Condition<NoInfer<E>>; form?: Scope<NoInfer<E>> | Condition<NoInfer<E>> };
  hooks?: ControllerHooks<NoInfer<E>>;
  /** Record, bulk, toolbar and widget actions, registered by name (docs/actions.md). */
  actions?: ControllerActions<NoInfer<E>>;
  /** Partials by name (docs/partials.md). */
  partials?: Record<string, PartialConfig>;
  /** hasMany and belongsToMany relations managed by `relation-manager` fields, by relation name (docs/relations.md). */
  relations?: { [R in EntityKey<NoInfer<E>>]?: RelationDeclaration<R extends keyof E ? RelatedEntity<E[R]> : any> };
  /** Drag-and-drop order of the list's records, flat or as a tree (docs/reorder.md). */
  reorder?: ReorderConfig<NoInfer<E>>;
  /** The built-in record action `duplicate`: `true` or its options (docs/actions.md, "Duplicate"). */
  duplicate?: DuplicateConfig<NoInfer<E>>;
}

/**
 * A controller as the engine runs it: every declaration expanded with the defaults of its entity
 * (`expandController` in controllers/defaults.ts; docs/controllers.md, "Defaults from the entity").
 */
export type ExpandedControllerConfig = Omit<ControllerConfig, 'list' | 'form' | 'relations'> & {
  list?: ListConfig;
  form?: FormConfig;
  relations?: Record<string, RelationConfig>;
};

/** The spec's reorder keys (docs/reorder.md). */
export interface ReorderConfig<E = any> {
  /** String key or text. */
  title?: string;
  /** The property shown as a node's label (default `name`, `title`, `login` or `code`). */
  nameFrom?: EntityKey<E>;
  /** Informational, served as is. */
  modelClass?: string;
  /** A tree: the belongsTo of the entity to itself (`parent` or its column `parent_id`); absent: a flat list. */
  parentColumn?: EntityKey<E> | `${EntityKey<E>}_id`;
  /** The integer property holding the position (default `sort_order`). */
  sortColumn?: EntityKey<E>;
  /** A tree's deepest level (roots are level 1); 0 or absent: no limit. Above 0 on a flat reorder fails start-up. */
  maxDepth?: number;
  /** Which of the list's records are reordered together (say, one site's): a condition like a scope. */
  partition?: Scope<E>;
}

/** What a relation manager may do; the routes of an operation not declared answer 404 (docs/relations.md). */
export type RelationButton = 'create' | 'update' | 'delete' | 'link' | 'unlink';

/** The columns of a relation panel's list: columns of the related entity, as a controller list declares them. */
interface RelationListConfig<R = any> {
  columns: ListColumns<R>;
  defaultSort?: { column: EntityKey<R>; direction: 'asc' | 'desc' };
  recordsPerPage?: number;
  perPageOptions?: number[];
}

/** A relation panel as declared: its columns may default from the related entity. */
type RelationPanelDeclaration<R = any> = Omit<RelationPanelConfig<R>, 'list'> & {
  list: Omit<RelationListConfig<R>, 'columns'> & { columns: ListColumnsDeclaration<R> };
};

/** A relation as a plugin declares it: columns and child fields may default from the related entity. */
export type RelationDeclaration<R = any> = Omit<RelationConfig<R>, 'view' | 'manage' | 'manageForm' | 'viewForm'> & {
  view: RelationPanelDeclaration<R>;
  manage?: Partial<RelationPanelDeclaration<R>>;
  manageForm?: { fields: FieldsDeclaration<R> };
  viewForm?: { fields: FieldsDeclaration<R> };
};

export interface RelationPanelConfig<R = any> {
  list: RelationListConfig<R>;
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
type RelationMessageKey = (typeof RELATION_MESSAGE_KEYS)[number];

/**
 * A hasMany or belongsToMany relation of the controller's entity, managed by a `relation-manager`
 * field (docs/relations.md): what the panel lists, what it may do, the child's forms and the
 * pivot's form.
 */
export interface RelationConfig<R = any> {
  /** String key or text; default: the relation-manager field's label. */
  label?: string;
  /** A controller (`vendor/plugin/name`) whose list scope limits the related rows; default: every row. */
  controller?: string;
  /** The panel on the parent's form: the linked rows and the toolbar. */
  view: RelationPanelConfig<R>;
  /** The picker of rows to link (its columns; default: the view's). */
  manage?: Partial<RelationPanelConfig<R>>;
  /** The child's form for create and update (built-in field types but relation-manager). */
  manageForm?: { fields: FormFields<R> };
  /** A read-only form for previewing a child. */
  viewForm?: { fields: FormFields<R> };
  /** belongsToMany through a pivot entity: the pivot columns an admin may edit. */
  pivot?: { form: { fields: Record<string, FieldConfig> } };
  /** RelationMessages overrides (string keys or text). */
  messages?: Partial<Record<RelationMessageKey, string>>;
}

/**
 * Typed helper: returns its input. The entity type comes from `entity`; every key that names a
 * property (columns, sort, filters, scopes, `softDelete`, reorder columns, relations) is checked
 * against it, and each field against its type's keys (docs/controllers.md, "Typed keys").
 */
export const defineController = <E = any>(controller: ControllerConfig<E>): ControllerConfig<E> => controller;

/** FormMessages and ListMessages keys (spec 2.5, 2.6), also the OpenAPI document's. */
export const FORM_MESSAGES = ['create', 'deleteConfirm', 'deleted', 'edit', 'preview', 'saved', 'update'] as const;
export const LIST_MESSAGES = [
  'create',
  'deleteConfirm',
  'deleteSelected',
  'deleted',
  'empty',
  'emptySearch',
  'emptySearchHint',
  'recordCount',
  'rowStateDeleted',
  'rowStateDisabled',
  'rowStateNegative',
  'searchPrompt',
  'selected',
] as const;
