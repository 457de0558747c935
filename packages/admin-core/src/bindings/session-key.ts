import type { MessageParams } from '../context/operation.ts';
import { Validation } from '../errors/index.ts';
import { SESSION_KEY } from './store.ts';

/** The two headers that carry a form session key (docs/relations.md, "Deferred bindings"; docs/files.md, "Child forms"). */
export type SessionKeyHeaderName = 'X-Session-Key' | 'X-Child-Session-Key';

type Translate = (key: string, params?: MessageParams) => string;

/**
 * A session key header, checked once for every route that reads one: absent is `undefined`, a
 * malformed key is a 422 naming the header (`backend::relation.session_key`), nothing done.
 * Headers arrive lower-cased from the adapters.
 */
export function sessionKeyHeader(
  headers: Readonly<Record<string, string | undefined>>,
  name: SessionKeyHeaderName,
  t: Translate,
): string | undefined {
  const key = headers[name.toLowerCase()];
  if (key === undefined) return undefined;
  checkSessionKey(key, name, t);
  return key;
}

/**
 * The same check for a key an operation receives from code (docs/relations.md, "Calling the
 * operations from code"): an operation never trusts its input's ranges.
 */
export function checkSessionKey(key: string, name: SessionKeyHeaderName, t: Translate): void {
  if (!SESSION_KEY.test(key)) throw Validation({ [name]: [t('backend::relation.session_key')] });
}
