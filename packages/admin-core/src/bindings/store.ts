import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The deferred bindings table (`cms_bindings`, docs/relations.md "Deferred bindings"): what an
 * admin did in a form before its save, held under the form's session key. Relation managers and
 * file fields both record here; the parent's save takes the rows of its key and applies them in
 * its transaction. Every function runs on the caller's entity manager, so it joins its transaction.
 */

/** Whose bindings: one admin's form session on one record (`parentId` 0 before the first save) of one controller. */
export interface BindingOwner {
  readonly sessionKey: string;
  readonly adminId: number;
  readonly controller: string;
  readonly parentId: number;
}

export interface BindingRow {
  field: string;
  targetId: number;
  kind: string;
  payload: Record<string, unknown> | null;
}

/** A session key as clients send it in `X-Session-Key`: 1 to 128 letters, digits, `-`, `_` or `.`. */
export const SESSION_KEY = /^[A-Za-z0-9._-]{1,128}$/;

const OWNER_SQL = 'b.session_key = ? and b.admin_id = ? and b.controller = ? and b.parent_id = ?';
const ownerParams = (owner: BindingOwner) => [owner.sessionKey, owner.adminId, owner.controller, owner.parentId];

const toRow = (row: Record<string, unknown>): BindingRow => ({
  field: String(row.field),
  targetId: Number(row.target_id),
  kind: String(row.kind),
  payload: (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as Record<string, unknown> | null,
});

/**
 * Takes the owner's lock until the transaction ends (an advisory lock on the owner; no row needs
 * to exist). Every path that changes or applies an owner's bindings takes it **before** it locks
 * files or related rows, so a save and a removal under one key never wait for each other in
 * opposite orders; and what they read after it (new statements, so a fresh snapshot) is what the
 * other committed (docs/relations.md, "Transactions and locking").
 */
export async function lockOwner(em: EntityManager, owner: BindingOwner): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0)) as locked', [ownerLockName(owner)]);
}

/** The name the owner's lock is taken on; the sweep takes several owners' locks in the order of these names. */
const ownerLockName = (owner: BindingOwner): string =>
  `cms_bindings|${owner.adminId}|${owner.controller}|${owner.parentId}|${owner.sessionKey}`;

/** How many rows of `kind` the owner holds, over all its fields (the caps of docs/relations.md, "Limits"). */
export async function countBindings(em: EntityManager, owner: BindingOwner, kind: string): Promise<number> {
  const rows = await em.execute<Array<{ total: unknown }>>(
    `select count(*) as total from cms_bindings b where ${OWNER_SQL} and b.kind = ?`,
    [...ownerParams(owner), kind],
  );
  return Number(rows[0]?.total ?? 0);
}

/** The owner's bindings of one field, oldest first. */
export async function listBindings(em: EntityManager, owner: BindingOwner, field: string): Promise<BindingRow[]> {
  const rows = await em.execute<Record<string, unknown>[]>(
    `select b.field, b.target_id, b.kind, b.payload from cms_bindings b where ${OWNER_SQL} and b.field = ? order by b.id`,
    [...ownerParams(owner), field],
  );
  return rows.map(toRow);
}

/** Records the latest intent for each target (one statement): a later binding of a target replaces the earlier one. */
export async function putBindings(
  em: EntityManager,
  owner: BindingOwner,
  field: string,
  entries: ReadonlyArray<{ targetId: number; kind: string; payload?: Record<string, unknown> | null }>,
): Promise<void> {
  if (entries.length === 0) return;
  const values = entries.map(() => '(?, ?, ?, ?, ?, ?, ?, ?::jsonb)').join(', ');
  const params = entries.flatMap((entry) => [
    ...ownerParams(owner),
    field,
    entry.targetId,
    entry.kind,
    entry.payload == null ? null : JSON.stringify(entry.payload),
  ]);
  await em.execute(
    `insert into cms_bindings (session_key, admin_id, controller, parent_id, field, target_id, kind, payload) values ${values}
     on conflict (session_key, admin_id, controller, parent_id, field, target_id)
     do update set kind = excluded.kind, payload = excluded.payload, created_at = now()`,
    params,
  );
}

/** Forgets the owner's bindings of these targets. */
export async function removeBindings(em: EntityManager, owner: BindingOwner, field: string, targetIds: readonly number[]): Promise<void> {
  if (targetIds.length === 0) return;
  await em.execute(
    `delete from cms_bindings b where ${OWNER_SQL} and b.field = ? and b.target_id in (${targetIds.map(() => '?').join(', ')})`,
    [...ownerParams(owner), field, ...targetIds],
  );
}

/** Takes (deletes and answers) every binding of the owner, under its lock: the save applies them in the same transaction. */
export async function takeBindings(em: EntityManager, owner: BindingOwner): Promise<BindingRow[]> {
  await lockOwner(em, owner);
  const rows = await em.execute<Record<string, unknown>[]>(
    `delete from cms_bindings b where ${OWNER_SQL} returning b.id, b.field, b.target_id, b.kind, b.payload`,
    ownerParams(owner),
  );
  return rows.sort((a, b) => Number(a.id) - Number(b.id)).map(toRow);
}

/**
 * Owners holding a binding older than `maxAgeSeconds` (the sweep), at most `limit`, in the order
 * their locks are to be taken (by `ownerLockName`: two sweeps never wait for each other in
 * opposite orders). Read without a lock: the sweep locks them, then reads their bindings again.
 */
export async function expiredOwners(em: EntityManager, maxAgeSeconds: number, limit: number): Promise<BindingOwner[]> {
  const rows = await em.execute<Record<string, unknown>[]>(
    `select distinct b.session_key, b.admin_id, b.controller, b.parent_id from cms_bindings b
     where b.created_at < now() - make_interval(secs => ?)
     order by b.admin_id, b.controller, b.parent_id, b.session_key limit ?`,
    [maxAgeSeconds, limit],
  );
  const owners = rows.map((row) => ({
    sessionKey: String(row.session_key),
    adminId: Number(row.admin_id),
    controller: String(row.controller),
    parentId: Number(row.parent_id),
  }));
  return owners
    .map((owner) => ({ owner, name: ownerLockName(owner) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(({ owner }) => owner);
}

/** The bindings of these owners older than `maxAgeSeconds` (the sweep reads them under the owners' locks). */
export async function expiredBindingsOf(
  em: EntityManager,
  owners: readonly BindingOwner[],
  maxAgeSeconds: number,
): Promise<Array<BindingRow & { id: number; controller: string }>> {
  if (owners.length === 0) return [];
  const rows = await em.execute<Record<string, unknown>[]>(
    `select b.id, b.controller, b.field, b.target_id, b.kind, b.payload from cms_bindings b
     where b.created_at < now() - make_interval(secs => ?) and (${owners.map(() => `(${OWNER_SQL})`).join(' or ')})
     order by b.id`,
    [maxAgeSeconds, ...owners.flatMap(ownerParams)],
  );
  return rows.map((row) => ({ ...toRow(row), id: Number(row.id), controller: String(row.controller) }));
}

/** Deletes bindings by id (the sweep, last, after the rows they name). */
export async function deleteBindingIds(em: EntityManager, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await em.execute(`delete from cms_bindings where id in (${ids.map(() => '?').join(', ')})`, [...ids]);
}

/**
 * SQL for "the id `column` is a target of the owner's bindings of `field` of these kinds", to
 * compose into a list's WHERE (one statement whatever the number of bindings).
 */
export function boundTargetsSql(owner: BindingOwner, field: string, kinds: readonly string[], column: string) {
  return {
    sql: `${column} in (select b.target_id from cms_bindings b where ${OWNER_SQL} and b.field = ? and b.kind in (${kinds.map(() => '?').join(', ')}))`,
    params: [...ownerParams(owner), field, ...kinds],
  };
}

/** SQL for "the id `column` was created under some form session and not saved yet" (never a candidate anywhere). */
export function createdUnderSessionSql(controller: string, field: string, column: string) {
  return {
    sql: `exists (select 1 from cms_bindings c where c.controller = ? and c.field = ? and c.kind = 'create' and c.target_id = ${column})`,
    params: [controller, field],
  };
}
