import type { OperationContext } from '../../context/operation.ts';
import { checkSessionKey } from '../../bindings/session-key.ts';

/**
 * The child form's own session key (`X-Child-Session-Key`, docs/files.md, "Child forms"): the
 * uploads it holds are committed by the child's save. Checked like a parent's key: a malformed
 * one is a 422 naming the header.
 */
export function childKeyOf(childSessionKey: string | undefined, ctx: OperationContext): { sessionKey?: string } {
  if (childSessionKey === undefined) return {};
  checkSessionKey(childSessionKey, 'X-Child-Session-Key', (key, params) => ctx.t(key, params));
  return { sessionKey: childSessionKey };
}
