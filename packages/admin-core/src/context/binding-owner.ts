import type { EntityManager } from '@mikro-orm/postgresql';
import type { BindingRow } from '../bindings/store.ts';
import type { ResolvedController, ResolvedField } from '../controllers/resolve.ts';
import type { OperationContext } from './operation.ts';

/**
 * The owner of some fields' deferred bindings (a behaviour's `bindings`, docs/architecture.md,
 * "Behaviours"): the form's save asks each owner whether it owns a field and lets it apply that
 * field's rows in the save's transaction. Declared here, beside `AdminServices` which carries the
 * owners, so that the services name no behaviour.
 */
export interface BindingOwner {
  owns(controller: ResolvedController, field: ResolvedField): boolean;
  /**
   * Applies one field's rows and writes its audit rows. Answers the blob ids to delete after the
   * commit (`outbox`) and, when a binding became ineligible, the field's message (the save is a
   * 422 and nothing is written).
   */
  apply(input: FieldBindings): Promise<{ outbox?: readonly number[]; problem?: string }>;
  /**
   * Runs once after every field is applied, with or without bindings of its own: rules over the
   * saved result (files: `required`, `maxFiles`). Answers messages by field name.
   */
  afterApply?(
    controller: ResolvedController,
    parentId: number,
    em: EntityManager,
    ctx: OperationContext,
  ): Promise<Record<string, string[]>>;
  /**
   * Runs in a hard delete's transaction: drops what the owner keeps for the deleted records
   * (files: their rows). Answers the blob ids to delete after the commit.
   */
  dropRecords?(
    controller: ResolvedController,
    recordIds: readonly number[],
    em: EntityManager,
    ctx: OperationContext,
  ): Promise<readonly number[]>;
}

/** What a save passes to the owner of a field's deferred bindings (docs/relations.md, "Deferred bindings"). */
interface FieldBindings {
  controller: ResolvedController;
  field: ResolvedField;
  /** The saved record's id. */
  parentId: number;
  /** The field's rows of the form session, taken (deleted) by the save. */
  rows: readonly BindingRow[];
  /** The save's transaction. */
  em: EntityManager;
  ctx: OperationContext;
}
