import { raw, type EntityManager } from '@mikro-orm/postgresql';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController, ResolvedField } from '../../controllers/resolve.ts';
import { tagOf, versionHash, versionMatches, versionMismatch, type VersionCondition } from '../../http/versions.ts';
import { belongsToManyOptions } from '../list/labels.ts';
import { encodeRecord, ROW_DIGEST_KEY, ROW_DIGEST_SQL, type RecordAnswer } from './record.ts';

/*
 * Record versions (docs/controllers.md, "Versions and If-Match"). A version is computed from what
 * is stored, so it works for every controller without a column or a migration, and it changes
 * with every write, whoever makes it: an HMAC-SHA-256, keyed by a key derived from the app's
 * `secret`, of the row's SHA-256 as PostgreSQL writes it (`row(e.*)::text`, every column) and of
 * the ids of the controller's belongsToMany fields in pivot order. Keyed, so that a tag is no
 * offline oracle for hidden columns: without the secret nobody can compute the tag of a guessed
 * row. It is answered as a strong entity tag, `ETag` and `meta.etag`.
 */

const manyFields = (controller: ResolvedController): ResolvedField[] =>
  [...controller.fields.values()].filter((field) => field.type.storage === 'relation' && field.property?.kind === 'm:n');

/** The entity tag of a record from its row digest and its answer's `data` (belongsToMany ids), keyed by the app's `secret`. */
export function entityTag(controller: ResolvedController, rowDigest: string, data: Record<string, unknown>, secret: string): string {
  const hash = versionHash(secret).update(rowDigest);
  for (const field of manyFields(controller)) hash.update(`\n${field.name}=${JSON.stringify(data[field.name] ?? [])}`);
  return tagOf(hash);
}

/** Removes the digest `readRecord(…, { digest: true })` added to a row, and answers it. */
export function takeDigest(row: Record<string, unknown>): string {
  const digest = String(row[ROW_DIGEST_KEY]);
  delete row[ROW_DIGEST_KEY];
  return digest;
}

async function rowDigest(controller: ResolvedController, id: number, em: EntityManager): Promise<string> {
  const rows = (await em
    .createQueryBuilder(controller.meta.class, 'e')
    .select(raw(`${ROW_DIGEST_SQL} as "digest"`) as never)
    .where({ id } as never)
    .execute('all', false)) as Array<{ digest: string }>;
  return String(rows[0]?.digest);
}

/** The current tag of a stored record, read in the caller's transaction (the save holds its row lock). */
async function storedTag(controller: ResolvedController, id: number, em: EntityManager, secret: string): Promise<string> {
  const data: Record<string, unknown> = {};
  for (const field of manyFields(controller)) {
    const options = await belongsToManyOptions(em, field.property!, [id], field.relation!.labelProperty!);
    data[field.name] = (options.get(id) ?? []).map((option) => option.value);
  }
  return entityTag(controller, await rowDigest(controller, id, em), data, secret);
}

/** Adds the tag of a record just written (or read) in this transaction to its answer. */
export async function withVersion(
  controller: ResolvedController,
  answer: RecordAnswer,
  em: EntityManager,
  secret: string,
): Promise<RecordAnswer> {
  const id = Number(answer.data.id);
  answer.meta.etag = entityTag(controller, await rowDigest(controller, id, em), answer.data, secret);
  return answer;
}

/**
 * Refuses a save whose `If-Match` no longer matches the record (412 `version_mismatch`). Called
 * under the save's row lock, so that two saves with the same tag cannot both pass. The answer
 * carries the current record beside the error, as an update would answer it (docs/errors.md).
 */
export async function checkVersion(
  controller: ResolvedController,
  record: Record<string, unknown>,
  condition: VersionCondition | undefined,
  em: EntityManager,
  ctx: OperationContext,
): Promise<void> {
  // `*` matches any current record: it was found in the form scope, else the save is a 404.
  if (condition === undefined || 'any' in condition) return;
  const tag = await storedTag(controller, Number(record.id), em, ctx.services.config.secret);
  if (versionMatches(condition, tag)) return;
  const current = await encodeRecord(controller, record, ctx, em);
  throw versionMismatch(tag, { data: current.data, meta: { ...current.meta, etag: tag } });
}
