import type { EntityMetadata } from '@mikro-orm/core';
import type { ResolvedController, ResolvedField } from './resolve.ts';
import type { RelationButton, RelationConfig, Scope } from './types.ts';

/** How a hasMany child points at its parent: its belongsTo property and column. */
export interface ForeignKey {
  /** The child's belongsTo property (`post`). */
  property: string;
  /** Its column (`post_id`). */
  column: string;
  nullable: boolean;
}

/** How a belongsToMany is stored: the pivot table, its two columns, and the editable pivot columns. */
export interface Pivot {
  table: string;
  /** The column holding the parent's id. */
  ownerColumn: string;
  /** The column holding the related row's id. */
  targetColumn: string;
  /** `pivot.form` fields, bound to scalar properties of the pivot entity (empty without a pivot form). */
  fields: Map<string, ResolvedField>;
}

/**
 * A relation of a controller's entity, checked at start-up and ready for the relation routes
 * (docs/relations.md). Its child controllers are ordinary resolved controllers over the related
 * entity, so that lists, forms and saves of children run the engine's own code.
 */
export interface ResolvedRelation {
  /** The relation property's name, the `{name}` of the routes. */
  name: string;
  /** The relation-manager field that names it: a 422 on the relation is keyed by it. */
  field: string;
  label: string;
  kind: 'hasMany' | 'belongsToMany';
  deferrable: boolean;
  config: RelationConfig;
  target: EntityMetadata;
  /** The related controller's list scope (`controller`), when named. */
  scope?: Scope;
  /**
   * The permissions of the related controllers (docs/relations.md, "Permissions"): the one named
   * by `controller`, else every controller over the related entity. An admin needs all of one of
   * them for the relation's routes; empty when no controller manages the entity.
   */
  related: ReadonlyArray<readonly string[]>;
  /** hasMany only. */
  foreignKey?: ForeignKey;
  /** belongsToMany only. */
  pivot?: Pivot;
  /** The linked rows' list (`view.list`) and the child's form (`manageForm`). */
  view: ResolvedController;
  /** The candidates' list (`manage.list`, default the view's). */
  manage: ResolvedController;
  /** The preview form, when declared. */
  viewForm?: ResolvedController;
  /** The view toolbar: what the routes allow. */
  buttons: ReadonlySet<RelationButton>;
}
