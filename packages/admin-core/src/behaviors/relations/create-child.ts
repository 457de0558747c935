import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { countBindings, putBindings } from '../../bindings/store.ts';
import { Validation } from '../../errors/index.ts';
import type { RecordAnswer } from '../form/record.ts';
import { saveRecord } from '../form/save.ts';
import { linkRows } from './apply.ts';
import { childKeyOf } from './child-key.ts';
import { auditRelation, ineligible, writerOf } from './members.ts';
import { mustAllow, openRelation, relationOf, resolveRelation, type RelationRef, type RelationTarget } from './open.ts';

export interface CreateChildInput extends RelationRef {
  /** The child's values, as the manage form takes them (the hasMany key is the server's). */
  data: Record<string, unknown>;
  /** The child form's session: uploads made under it are committed by this save. */
  childSessionKey?: string;
}

/** `POST {base}/records`: a child through the manage form; the server sets the hasMany key (or, deferred, records the creation). */
export async function createChild(controller: ResolvedController, input: CreateChildInput, ctx: OperationContext): Promise<RecordAnswer> {
  // An undeclared operation has no route: 404 before the values are looked at.
  mustAllow(relationOf(controller, input.relation), 'create');
  const relation = resolveRelation(controller, input, 'write', ctx);
  const { parentId } = input;
  const deferred = input.sessionKey !== undefined && relation.deferrable;
  const childKey = childKeyOf(input.childSessionKey, ctx);
  let target: RelationTarget | undefined;
  return saveRecord(
    relation.view,
    {
      body: input.data,
      prepare: async (em) => {
        target = await openRelation(controller, input, 'write', ctx, em);
        // Deferred creations are bounded per key (docs/relations.md, "Limits"), counted under its lock.
        const max = ctx.services.config.formSessionMaxCreated;
        if (target.owner && (await countBindings(em, target.owner, 'create')) >= max)
          throw Validation({ [relation.field]: [ctx.t('backend::relation.too_many_created', { max })] });
      },
      // A hasMany child is inserted with its key (a deferred one with none, until the parent's save).
      ...(relation.foreignKey && !deferred ? { set: { [relation.foreignKey.property]: parentId } } : {}),
      // The relation row below says what happened, on the parent (docs/audit.md).
      audit: false,
      ...childKey,
      afterFlush: async (em, record) => {
        const id = Number(record.id);
        if (target!.owner) return putBindings(em, target!.owner, relation.field, [{ targetId: id, kind: 'create' }]);
        if (relation.pivot && (await linkRows(writerOf(target!, ctx, em), [id], em)) !== 1) throw ineligible(target!, ctx);
        await auditRelation(target!, ctx, em, 'create', [id]);
      },
    },
    ctx,
  );
}
