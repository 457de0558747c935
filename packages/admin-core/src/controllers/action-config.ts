import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../auth/principal.ts';

/**
 * Controller actions (docs/actions.md): functions registered by name under `actions.record`,
 * `actions.bulk`, `actions.toolbar` and `actions.widget`. The engine routes, gates, locks and
 * wraps them in one transaction; an action only does its work. Declared here with the other
 * configuration types, so that `controllers/` imports no behaviour; the actions behaviour
 * (`behaviors/actions/`) runs them (docs/architecture.md, "Behaviours").
 */

/** What every action receives besides its input. */
export interface ActionContext {
  /** The transaction's entity manager: every query of the action goes through it. */
  em: EntityManager;
  principal: Principal;
  /** The request's locale (the admin's preferred locale once signed in). */
  locale: string;
  /** Translates a string key in the request's locale (`acme.shop::orders.shipped`). */
  t(key: string, params?: Record<string, string | number>): string;
  /**
   * The values of a settings code (defaults applied, secrets decrypted), read through the
   * transaction's connection: `await settings('journal')`.
   */
  settings(code: string): Promise<Record<string, unknown>>;
  /** Runs `task` once the action's transaction has committed, never if it rolls back (docs/controllers.md, "After the commit"). */
  afterCommit(task: () => void | Promise<void>): void;
  /**
   * The files of the controller's fileupload fields, read and written in the action's transaction
   * (docs/actions.md, "Files"): new blobs are deleted again when it rolls back, replaced ones
   * once it has committed.
   */
  files: ActionFiles;
}

/** A file of a record's fileupload field as `ctx.files` answers it: the FileItem of the file routes (docs/files.md, "Routes"). */
export interface ActionFile {
  id: number;
  file_name: string;
  file_size: number;
  content_type: string;
  title: string;
  description: string;
  sort_order: number;
  created_at: string;
  pending: boolean;
  /** Public files only. */
  url?: string;
  /** Public images only. */
  thumb_url?: string;
}

/** A record of the action's controller: the entity (flushed: it has its `id`) or its id. */
export type ActionRecordRef = { id?: unknown } | number;

/** A file an action attaches: its name decides its type, as an upload's (docs/files.md, "Uploads"). */
export interface ActionFileInput {
  name: string;
  data: Buffer | Uint8Array;
  title?: string;
  description?: string;
}

/**
 * `ctx.files` (docs/actions.md, "Files"): the files of the action's controller. A field that is
 * not a fileupload field of the controller is a programming error (an `Error`, opaque 500).
 */
export interface ActionFiles {
  /** The record's files of `field`, in their order. */
  list(record: ActionRecordRef, field: string): Promise<ActionFile[]>;
  /**
   * Attaches a file as an upload would, with the field's rules (types, size, the image guard,
   * attachOne replaces, a full attachMany refuses with a 422 on the field); one `file` audit row.
   */
  attach(record: ActionRecordRef, field: string, file: ActionFileInput): Promise<ActionFile>;
  /**
   * Copies the files of `from` to `to` (every fileupload field, or only `field`): each blob and its
   * thumbnails are copied under new keys, never shared; captions and order are kept. An attachOne
   * field of `to` loses its file; more files than `maxFiles` is a 422 on the field.
   */
  copy(from: ActionRecordRef, to: ActionRecordRef, field?: string): Promise<ActionFile[]>;
}

/**
 * What an action may answer. `message` is a string key or plain text (a key is translated);
 * `data` is any JSON value, at most 256 KiB once encoded.
 */
export interface ActionOutcome {
  message?: string;
  data?: unknown;
}

/** `POST /{ctl}/{id}/actions/{name}`: runs on one record loaded and locked through the form scope. */
export interface RecordActionDefinition<E = any> {
  /** String key or text, served in `meta.actions`. */
  label: string;
  /** A question the admin application asks before running it (string key or text). */
  confirm?: string;
  /** Shown as a dangerous action (served as `danger: true`; absent when false). */
  danger?: boolean;
  /** Codes the principal needs besides the controller's (403 otherwise; hidden from `meta.actions`). */
  permissions?: string[];
  /**
   * Whether the action applies to the record (409 `action_not_applicable` otherwise; hidden from
   * `meta.actions`). Synchronous, and reads scalar properties only: on show it receives the row
   * as served, on the action route the locked entity.
   */
  appliesTo?(record: Readonly<E>): boolean;
  run(record: E, ctx: ActionContext): ActionOutcome | void | Promise<ActionOutcome | void>;
}

/** What a bulk action may answer; `affected` defaults to the number of records it received. */
export interface BulkActionOutcome {
  affected?: number;
  message?: string;
}

/**
 * `POST /{ctl}/bulk/{name}`: runs on the selection resolved and locked through the list scope.
 * Declared once: the list offers every bulk action unless `list.bulkActions` orders or hides
 * them (docs/actions.md, "Bulk actions declared once").
 */
export interface BulkActionDefinition<E = any> {
  /** String key or text, served in the list schema's `bulkActions` (a `list.bulkActions` entry's label wins). */
  label?: string;
  /** A question the admin application asks before it runs the action. */
  confirm?: string;
  permissions?: string[];
  /** Never called with an empty list: a selection with no scoped row answers `affected: 0`. */
  run(records: E[], ctx: ActionContext): BulkActionOutcome | void | Promise<BulkActionOutcome | void>;
}

/** `POST /{ctl}/toolbar/{name}`: declared in the list's `toolbar.buttons`; takes no input. */
export interface ToolbarActionDefinition {
  /** String key or text, served in the list schema's `toolbarActions`. */
  label: string;
  permissions?: string[];
  /**
   * `false`: run without a transaction, each query of `ctx.em` on its own. For an action that
   * reads and then talks to another system (HTTP): it must not hold a database connection, and
   * row locks, while it waits. Default `true`.
   */
  transaction?: boolean;
  run(ctx: ActionContext): ActionOutcome | void | Promise<ActionOutcome | void>;
}

/** The input of a widget action, already filtered (see `WidgetActionDefinition`). */
export interface WidgetActionInput<E = any> {
  /** The record named by `record_id`, loaded and locked through the form scope. */
  record?: E;
  /** The request's `values`, reduced to the widget field's `fill` keys with scalar values. */
  values: Record<string, string | number | boolean | null>;
  /** The request's `payload` (any JSON value, at most 64 KiB encoded); `undefined` when absent. */
  payload: unknown;
}

/** What a widget action may answer; `fill` is reduced to the field's `fill` keys with scalar values. */
export interface WidgetActionOutcome extends ActionOutcome {
  fill?: Record<string, unknown>;
}

/** `POST /{ctl}/widgets/{field}`: the action a `type: widget` form field names in `action`. */
export interface WidgetActionDefinition<E = any> {
  permissions?: string[];
  run(input: WidgetActionInput<E>, ctx: ActionContext): WidgetActionOutcome | void | Promise<WidgetActionOutcome | void>;
}

/** The `actions` key of a controller: each kind by action name (a URL path segment). */
export interface ControllerActions<E = any> {
  record?: Record<string, RecordActionDefinition<E>>;
  bulk?: Record<string, BulkActionDefinition<E>>;
  toolbar?: Record<string, ToolbarActionDefinition>;
  widget?: Record<string, WidgetActionDefinition<E>>;
}

/** Typed helper for actions declared apart from their controller: `defineActions<IPost>({ … })`. Returns its input. */
export const defineActions = <E = any>(actions: ControllerActions<E>): ControllerActions<E> => actions;

/** RecordAction (docs/actions.md, "Lists of actions (per admin)"): `danger` only when true. */
export type RecordAction = {
  name: string;
  label: string;
  confirm?: string;
  danger?: true;
};

/**
 * BulkAction and ToolbarAction (docs/actions.md, "Lists of actions (per admin)"), as the list schema serves them
 * (types, so they fit `Record<string, unknown>`).
 */
export type BulkAction = {
  name: string;
  label: string;
  confirm?: string;
};
export type ToolbarAction = {
  name: string;
  label: string;
};

/** Toolbar buttons the admin application draws itself; any other name is a toolbar action. */
export const BUILTIN_TOOLBAR_BUTTONS: readonly string[] = ['create', 'delete'];
