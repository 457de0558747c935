import type { EntityManager } from '@mikro-orm/postgresql';
import type { AdminServices } from '../../context/services.ts';
import { retryTransient } from '../../context/retry.ts';
import { deleteBindingIds, expiredBindingsOf, expiredOwners, lockOwner } from '../../bindings/store.ts';
import { idsSql } from './sql.ts';
import { quoteIdent as q } from '../../database/sql.ts';
import { deleteFileRows } from '../files/items.ts';

/** Owners swept per transaction: each one's lock is held to its end. */
const SWEEP_BATCH = 100;

/**
 * The sweep of forms never saved (docs/relations.md, "The sweep"): bindings older than
 * `maxAgeSeconds` go, with the children created under them. A child is removed only while it is
 * still unsaved: a hasMany child whose key is still NULL, a belongsToMany child that no pivot row
 * joins; a saved record is never touched. It keeps the one lock order of every other path
 * (docs/relations.md, "Transactions and locking"): the owners' locks first (in the order of
 * their names), then the pending files and children, then the binding rows. Each batch of
 * owners is one transaction, run again after a transient failure. Answers how many bindings went.
 */
export async function sweepBindings(
  services: Pick<AdminServices, 'em' | 'controllers' | 'blobs' | 'config'>,
  maxAgeSeconds: number,
): Promise<number> {
  let total = 0;
  for (;;) {
    const { swept, owners, outbox } = await retryTransient(
      async () => {
        let outbox: number[] = [];
        const result = await services.em().transactional(async (txEm) => {
          const em = txEm as unknown as EntityManager;
          const owners = await expiredOwners(em, maxAgeSeconds, SWEEP_BATCH);
          for (const owner of owners) await lockOwner(em, owner);
          // Read after the locks: what a save or a removal under the key committed meanwhile.
          const rows = await expiredBindingsOf(em, owners, maxAgeSeconds);
          // Pending uploads never attached go with their blobs (docs/files.md, "Pending uploads").
          const uploads = rows.filter((row) => row.kind === 'upload').map((row) => row.targetId);
          if (uploads.length) outbox = await deleteFileRows(services.blobs, em, uploads, { pendingOnly: true });
          await deleteCreated(services, em, rows);
          await deleteBindingIds(
            em,
            rows.map((row) => row.id),
          );
          return { swept: rows.length, owners: owners.length };
        });
        return { ...result, outbox };
      },
      {
        onRetry: (attempt, error) =>
          services.config.logger.warn('form session sweep retried after a transient database failure', { attempt, error: String(error) }),
      },
    );
    await services.blobs.flush(outbox);
    total += swept;
    if (owners < SWEEP_BATCH) return total;
  }
}

/** The children of expired `create` bindings that are still unsaved, one statement per relation. */
async function deleteCreated(
  services: Pick<AdminServices, 'controllers'>,
  em: EntityManager,
  rows: ReadonlyArray<{ kind: string; controller: string; field: string; targetId: number }>,
): Promise<void> {
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
}
