/**
 * Every error code the core answers, in one closed table: its kind (which decides the status) and
 * the message key of its envelope. docs/errors.md, "Error codes", lists the same codes with their
 * status (a test compares the two). A plugin answers its own codes, named `${plugin}.${name}`.
 */

/** The status of each kind. `internal` is only what `toErrorResponse` makes of anything else. */
export const STATUS_BY_KIND = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  validation: 422,
  too_many_requests: 429,
  internal: 500,
} as const;

/** The kinds an `AdminError` may have (never `internal`: an `AdminError` is an expected refusal). */
export type ErrorKind = Exclude<keyof typeof STATUS_BY_KIND, 'internal'>;

/** The message of a 422 is the generic one; its field messages say what is wrong (docs/errors.md). */
const FIELD_CODE = { kind: 'validation', messageKey: 'backend::errors.validation_failed' } as const;

/** One row of the table: the kind decides the status; `messageKey` is the envelope's default message. */
export interface CodeEntry {
  kind: keyof typeof STATUS_BY_KIND;
  messageKey: string;
}

export const ERROR_CODES = {
  unauthenticated: { kind: 'unauthorized', messageKey: 'backend::errors.unauthenticated' },
  login_failed: { kind: 'unauthorized', messageKey: 'backend::errors.login_failed' },
  forbidden: { kind: 'forbidden', messageKey: 'backend::errors.forbidden' },
  xhr_required: { kind: 'forbidden', messageKey: 'backend::errors.csrf' },
  interactive_only: { kind: 'forbidden', messageKey: 'backend::errors.interactive_only' },
  not_found: { kind: 'not_found', messageKey: 'backend::errors.not_found' },
  action_not_applicable: { kind: 'conflict', messageKey: 'backend::errors.action_not_applicable' },
  bulk_partly_scoped: { kind: 'conflict', messageKey: 'backend::errors.bulk_partly_scoped' },
  reorder_stale: { kind: 'conflict', messageKey: 'backend::errors.reorder_stale' },
  // A deadlock or serialization failure that outlasted the retries (docs/errors.md, "Transient conflicts").
  transient_conflict: { kind: 'conflict', messageKey: 'backend::errors.transient_conflict' },
  version_mismatch: { kind: 'precondition_failed', messageKey: 'backend::errors.version_mismatch' },
  validation_failed: { kind: 'validation', messageKey: 'backend::errors.validation_failed' },
  // The codes built-in field types give a 422 (docs/field-types.md).
  'taglist.invalid': FIELD_CODE,
  'money.invalid': FIELD_CODE,
  'money.too_precise': FIELD_CODE,
  'money.too_large': FIELD_CODE,
  'money.too_small': FIELD_CODE,
  'reorder.flat_parent': FIELD_CODE,
  too_many_requests: { kind: 'too_many_requests', messageKey: 'backend::errors.too_many_requests' },
  internal_error: { kind: 'internal', messageKey: 'backend::errors.internal' },
} as const satisfies Record<string, CodeEntry>;

/** A code of the core's table. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** A plugin's own code, `${plugin}.${name}` (the catalog's `color.not_image`). */
export type PluginErrorCode = `${string}.${string}`;

/** The core's codes of the given kinds (`CodeOfKind<'conflict'>` is `action_not_applicable | bulk_partly_scoped`). */
export type CodeOfKind<K extends keyof typeof STATUS_BY_KIND> = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C]['kind'] extends K ? C : never;
}[ErrorCode];

/** A field refusal (`FieldError`) is a 422 on the field, or a 403 answered before anything is written. */
export type FieldErrorKind = 'validation' | 'forbidden';

/** The codes a field refusal may carry: the core's 422 codes, `forbidden` (a locked id), or a plugin type's own. */
export type FieldErrorCode = CodeOfKind<'validation'> | 'forbidden' | PluginErrorCode;

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_CODES, code);

/** The status a code of the core's table answers. */
export const statusOf = (code: ErrorCode): number => STATUS_BY_KIND[ERROR_CODES[code].kind];
