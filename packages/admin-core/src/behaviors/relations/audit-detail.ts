/**
 * The `detail` of a relation's audit row (docs/audit.md, "What is recorded"; docs/relations.md,
 * "Audit rows"): `<relation>:<op>`, then `:` and the child ids it concerned, comma-separated
 * (`comments:unlink:12,15`). A save applying deferred bindings writes `<relation>:deferred:`
 * and each operation with its ids (`comments:deferred:create=31;delete=12`). The column holds
 * 255 characters: ids that do not fit are counted instead (`…+40`).
 */
export const DETAIL_MAX = 255;

/** `ids` as a comma-separated list that fits in `room` characters, the rest counted. */
function idList(ids: readonly number[], room: number): string {
  const sorted = [...ids].sort((a, b) => a - b);
  let text = '';
  for (let index = 0; index < sorted.length; index++) {
    const next = `${text ? `${text},` : ''}${sorted[index]}`;
    const rest = sorted.length - index - 1;
    // Room for this id, and for a `…+N` of the ids after it unless it is the last one.
    if (next.length + (rest ? `…+${rest}`.length : 0) > room) return `${text}…+${sorted.length - index}`;
    text = next;
  }
  return text;
}

export function relationDetail(relation: string, op: string, ids: readonly number[]): string {
  const head = `${relation}:${op}`;
  if (ids.length === 0) return head.slice(0, DETAIL_MAX);
  return `${head}:${idList(ids, DETAIL_MAX - head.length - 1)}`;
}

/** The row of a save that applied deferred bindings: each operation (in a fixed order) with its ids. */
export function deferredDetail(relation: string, byOp: ReadonlyMap<string, readonly number[]>): string {
  const head = `${relation}:deferred`;
  const ops = ['create', 'link', 'unlink', 'delete', 'pivot'].filter((op) => byOp.get(op)?.length);
  if (ops.length === 0) return head;
  // Each operation gets an equal share of the room; a long list is cut with its count.
  const room = Math.floor((DETAIL_MAX - head.length - 1) / ops.length);
  const parts = ops.map((op) => `${op}=${idList(byOp.get(op)!, room - op.length - 2)}`);
  return `${head}:${parts.join(';')}`.slice(0, DETAIL_MAX);
}
