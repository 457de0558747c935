import type { RequestContext } from '../../context/operation.ts';
import { ACTION_DATA_MAX_BYTES } from './types.ts';

/** The answer's message: the action's (a string key is translated, text passes), else "Done.". */
export function messageOf(ctx: Pick<RequestContext, 't'>, message: unknown): string {
  if (message === undefined) return ctx.t('backend::actions.done');
  if (typeof message !== 'string') throw new Error(`an action answered a ${typeof message} message; expected a string`);
  return ctx.t(message);
}

/**
 * `data` as it will be sent: encoded once, at most 256 KiB of UTF-8 JSON, and embedded as that
 * encoding reads back (so what was measured is what is sent: `toJSON` ran, functions and
 * `undefined` members are gone). A larger or unencodable value (a cycle, a BigInt, a bare
 * function) throws a plain error: inside the action's transaction, so it rolls back and
 * answers the opaque 500. `undefined` means no `data` key.
 */
export function encodeData(data: unknown): { data?: unknown } {
  if (data === undefined) return {};
  const encoded = JSON.stringify(data) as string | undefined;
  if (encoded === undefined) throw new Error('an action answered `data` that JSON cannot encode');
  const size = Buffer.byteLength(encoded, 'utf8');
  if (size > ACTION_DATA_MAX_BYTES) throw new Error(`an action answered ${size} bytes of \`data\`; the limit is ${ACTION_DATA_MAX_BYTES}`);
  return { data: JSON.parse(encoded) };
}

/** Bytes of a JSON value once encoded, or undefined when it has no JSON encoding. */
export function encodedSize(value: unknown): number | undefined {
  try {
    const encoded = JSON.stringify(value) as string | undefined;
    return encoded === undefined ? undefined : Buffer.byteLength(encoded, 'utf8');
  } catch {
    return undefined;
  }
}
