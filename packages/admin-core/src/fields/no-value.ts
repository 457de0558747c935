import { FieldError } from './types.ts';
import type { FieldType } from './types.ts';

/**
 * Shared by the types without a value (partial, widget, relation-manager, fileupload): they are
 * never part of a save body. The engine refuses such a key by storage before any decode; this
 * is the same refusal, should a value reach the type anyway.
 */
export const noValue: Pick<FieldType, 'storage' | 'decode' | 'encode'> = {
  storage: 'none',
  decode() {
    throw new FieldError('validation_failed', 'backend::validation.unknown_key');
  },
  encode: () => undefined,
};
