import type { EntityKey } from '@mikro-orm/core';
import type { RecordActionDefinition } from './action-config.ts';

/**
 * The built-in record action `duplicate` (docs/actions.md, "Duplicate"): declared with the
 * controller key `duplicate`, listed and gated as any record action. Declared here with the other
 * configuration types, so that `controllers/` imports no behaviour; the actions behaviour
 * (`behaviors/actions/duplicate.ts`) checks and runs it.
 */

/** The action's name: a URL path segment, `POST /{ctl}/{id}/actions/duplicate`. */
export const DUPLICATE_ACTION = 'duplicate';

/** The core's label of the action (docs/strings.md). */
const DUPLICATE_LABEL = 'backend::actions.duplicate';

/**
 * A value of the copy: a constant, or a function of the original's value and record (sync or
 * async) answering the copy's value.
 */
type DuplicateValue<E, K extends keyof E> = E[K] | ((value: E[K], record: Readonly<E>) => E[K] | Promise<E[K]>);

/** `duplicate: { … }`; every key optional (`duplicate: true` is `{}`). */
export interface DuplicateOptions<E = any> {
  /**
   * The copy's values by entity property (a column or a belongsTo), over the original's: make
   * unique columns unique here (`slug: (v) => \`${v}-copy\``), reset others (`is_public: false`).
   */
  values?: { [K in EntityKey<E>]?: K extends keyof E ? DuplicateValue<E, K> : never };
  /** hasMany relations of the entity whose child rows are copied with the record. Default: none. */
  children?: Array<EntityKey<E>>;
  /** Whether the files of the fileupload fields are copied (new blobs). Default `true`. */
  files?: boolean;
  /** Codes the principal needs besides the controller's (403 otherwise; hidden from `meta.actions`). */
  permissions?: string[];
  /** The action's label (string key or text). Default `backend::actions.duplicate`, "Duplicate". */
  label?: string;
}

export type DuplicateConfig<E = any> = boolean | DuplicateOptions<E>;

/** The keys of `duplicate: { … }`, checked at start-up. */
export const DUPLICATE_KEYS = ['values', 'children', 'files', 'permissions', 'label'] as const;

/** The controller's `duplicate` as options, or undefined when the controller does not duplicate. */
export function duplicateOptions(config: { duplicate?: DuplicateConfig }): DuplicateOptions | undefined {
  const value = config.duplicate;
  if (value === undefined || value === false) return undefined;
  return value === true ? {} : value;
}

/** What the lists of actions need of the built-in action: its label and permissions (it applies to every record). */
export type BuiltinRecordAction = Pick<RecordActionDefinition, 'label' | 'confirm' | 'danger' | 'permissions' | 'appliesTo'>;

/**
 * The record actions of a controller as they are listed and described, in order: the declared
 * ones, then `duplicate` when the controller opts in (start-up refuses a declared one of that name).
 */
export function recordActionEntries(config: {
  actions?: { record?: Record<string, RecordActionDefinition> };
  duplicate?: DuplicateConfig;
}): Array<[string, BuiltinRecordAction]> {
  const entries: Array<[string, BuiltinRecordAction]> = Object.entries(config.actions?.record ?? {});
  const duplicate = duplicateOptions(config);
  if (duplicate && !entries.some(([name]) => name === DUPLICATE_ACTION))
    entries.push([
      DUPLICATE_ACTION,
      { label: duplicate.label ?? DUPLICATE_LABEL, ...(duplicate.permissions ? { permissions: duplicate.permissions } : {}) },
    ]);
  return entries;
}
