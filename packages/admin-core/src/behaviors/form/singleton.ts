import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { NotFound } from '../../errors/index.ts';
import { scopeCondition } from '../list/conditions.ts';
import { encodeRecord, type RecordAnswer } from './record.ts';
import { withVersion } from './version.ts';
import { recordAudit } from '../../audit/record.ts';
import { quoteIdent } from '../../database/sql.ts';

/**
 * `GET /{ctl}/singleton`: the first record in the form scope, or, when the table has none, one
 * created from the fields' defaults. Created and read in one transaction under a table lock so
 * that two first visits cannot create two records. The answer carries the record's version.
 */
export async function openSingleton(controller: ResolvedController, ctx: OperationContext): Promise<RecordAnswer> {
  return ctx.transaction(async (em) => {
    await em.execute(`lock table ${quoteIdent(controller.meta.tableName)} in share row exclusive mode`);
    const scope = await scopeCondition(controller, 'form', ctx.scope(em));
    // `find` with a limit, not `findOne`: MikroORM refuses `findOne` with an empty condition
    // (no scope), which used to answer a 500 on every first visit.
    let [record] = await em.find(controller.meta.class, (scope ?? {}) as never, { orderBy: { id: 'asc' } as never, limit: 1 });
    if (!record) {
      if ((await em.count(controller.meta.class, {} as never)) > 0) throw NotFound();
      const defaults: Record<string, unknown> = {};
      for (const field of controller.fields.values()) {
        if (field.property && field.type.storage === 'column' && field.config.default !== undefined)
          defaults[field.property.name] = field.config.default;
      }
      record = em.create(controller.meta.class, defaults as never);
      await em.flush();
      // Opening creates the record: a write like any (docs/audit.md).
      const id = (record as { id: number }).id;
      await recordAudit(em, ctx, { action: 'create', target: controller.address, recordIds: [id], detail: 'singleton' });
      if (scope && !(await em.findOne(controller.meta.class, { $and: [{ id: (record as { id: number }).id }, scope] } as never)))
        throw NotFound();
    }
    return withVersion(
      controller,
      await encodeRecord(controller, record as Record<string, unknown>, ctx, em),
      em,
      ctx.services.config.secret,
    );
  });
}
