import type { AdminServices } from '../../context/services.ts';
import { takeExpiredBindings } from '../../bindings/store.ts';
import { idsSql, q } from './sql.ts';
import { deleteFileRows } from '../files/items.ts';

/**
 * The sweep of forms never saved (docs/relations.md, "The sweep"): bindings older than
 * `maxAgeSeconds` go, with the children created under them, in one transaction. A child is
 * removed only while it is still unsaved: a hasMany child whose key is still NULL, a
 * belongsToMany child that no pivot row joins; a saved record is never touched. Answers how many
 * bindings went.
 */
export async function sweepBindings(services: Pick<AdminServices, 'em' | 'controllers' | 'blobs'>, maxAgeSeconds: number): Promise<number> {
  let outbox: number[] = [];
  const swept = await services.em().transactional(async (em) => {
    const rows = await takeExpiredBindings(em as never, maxAgeSeconds);
    // Pending uploads never attached go with their blobs (docs/files.md, "Pending uploads").
    const uploads = rows.filter((row) => row.kind === 'upload').map((row) => row.targetId);
    if (uploads.length) {
      outbox = await deleteFileRows(services.blobs, em as never, uploads, { pendingOnly: true });
    }
    const created = new Map<string, number[]>();
    for (const row of rows) {
      if (row.kind !== 'create') continue;
      const key = `${row.controller}\u0000${row.field}`;
      created.set(key, [...(created.get(key) ?? []), row.targetId]);
    }
    for (const [key, ids] of created) {
      const [address, fieldName] = key.split('\u0000') as [string, string];
      const controller = services.controllers.get(address);
      const field = controller?.fields.get(fieldName);
      const relation = field?.config.relation ? controller?.relations.get(field.config.relation) : undefined;
      if (!relation) continue;
      const where = idsSql('e."id"', ids);
      const unsaved = relation.foreignKey
        ? `e.${q(relation.foreignKey.column)} is null`
        : `not exists (select 1 from ${q(relation.pivot!.table)} p where p.${q(relation.pivot!.targetColumn)} = e."id")`;
      await em.execute(`delete from ${q(relation.target.tableName)} e where ${where.sql} and ${unsaved}`, where.params);
    }
    return rows.length;
  });
  await services.blobs.flush(outbox);
  return swept;
}
