/**
 * The one small family of typed errors. Core code throws these; the adapter maps them to the
 * error envelope `{error:{code,message,details}}` with the status of their kind, in exactly one
 * place (`toErrorResponse`). Anything that is not an `AdminError` is an opaque 500.
 */
import {
  ERROR_CODES,
  isErrorCode,
  STATUS_BY_KIND,
  type CodeOfKind,
  type CodeEntry,
  type ErrorKind,
  type FieldErrorCode,
  type PluginErrorCode,
} from './codes.ts';

export type { ErrorKind } from './codes.ts';

export type ErrorDetails = Record<string, string[]>;

/** The core codes an `AdminError` may carry: every one of the table but `internal_error`. */
export type AdminErrorCode = CodeOfKind<ErrorKind>;

export interface AdminErrorOptions {
  /** Default: the code's message key in the table. */
  messageKey?: string;
  params?: Record<string, string | number>;
  details?: ErrorDetails;
  /** Problems found beyond `details` and only counted (docs/errors.md, "Bounded refusals"). */
  omitted?: number;
  headers?: Record<string, string>;
  /**
   * The resource as it stands, answered beside `error` as `data` and `meta` (and `exists`, a
   * settings form's SettingsResult) (412 `version_mismatch`, docs/errors.md).
   */
  current?: CurrentResource;
}

/** The resource a 412 `version_mismatch` answers beside `error`: a record envelope, or a SettingsResult with its `exists`. */
export interface CurrentResource {
  data: unknown;
  meta: Record<string, unknown>;
  exists?: boolean;
}

/** A plugin's code is not in the table: it names its kind and message key. */
export interface PluginErrorOptions extends AdminErrorOptions {
  kind: ErrorKind;
  messageKey: string;
}

/**
 * `new AdminError('interactive_only')`: a core code takes its kind (so its status) and default
 * message key from the table (`errors/codes.ts`); a plugin code names them,
 * `new AdminError('color.clash', { kind: 'conflict', messageKey: 'acme.catalog::color.clash' })`.
 * `messageKey` is a string key resolved in the request's locale when the envelope is built;
 * `params` fill its placeholders. Field messages in `details` are already localized by whoever
 * built them (see `validation/`).
 */
export class AdminError extends Error {
  readonly kind: ErrorKind;
  readonly code: AdminErrorCode | PluginErrorCode;
  readonly messageKey: string;
  readonly params: Record<string, string | number>;
  readonly details: ErrorDetails;
  readonly omitted: number;
  readonly headers: Record<string, string>;
  readonly current: CurrentResource | undefined;

  constructor(code: AdminErrorCode, options?: AdminErrorOptions);
  constructor(code: PluginErrorCode, options: PluginErrorOptions);
  constructor(code: AdminErrorCode | PluginErrorCode, options: AdminErrorOptions & { kind?: ErrorKind } = {}) {
    // A core code's kind is the table's, whatever the options say (`internal_error` is no AdminError's).
    const entry: CodeEntry | undefined = isErrorCode(code) ? ERROR_CODES[code] : undefined;
    const kind = entry ? entry.kind : options.kind;
    const messageKey = options.messageKey ?? entry?.messageKey;
    if (!kind || kind === 'internal' || !messageKey) {
      throw new TypeError(`AdminError "${code}": a code outside the core's table needs its kind and messageKey`);
    }
    super(`${code}: ${messageKey}`);
    this.name = 'AdminError';
    this.kind = kind;
    this.code = code;
    this.messageKey = messageKey;
    this.params = options.params ?? {};
    this.details = options.details ?? {};
    this.omitted = options.omitted ?? 0;
    this.headers = options.headers ?? {};
    this.current = options.current;
  }

  get status(): number {
    return STATUS_BY_KIND[this.kind];
  }
}

/** Builds an error of a helper's kind: `code` is a core code of that kind or a plugin code. */
const ofKind = (kind: ErrorKind, code: AdminErrorCode | PluginErrorCode, fallbackKey: string, options: AdminErrorOptions = {}) =>
  new AdminError(code as PluginErrorCode, {
    ...options,
    kind,
    messageKey: options.messageKey ?? (isErrorCode(code) ? ERROR_CODES[code].messageKey : fallbackKey),
  });

export const Unauthorized = (messageKey?: string, code: CodeOfKind<'unauthorized'> | PluginErrorCode = 'unauthenticated') =>
  ofKind('unauthorized', code, 'backend::errors.unauthenticated', { messageKey });

/**
 * A 403. `details` first (they name the refused fields, as in `Validation(details)`); the message key
 * is optional (default "You may not do this."): `Forbidden()`, `Forbidden({ is_superuser: ['…'] })`.
 */
export const Forbidden = (details?: ErrorDetails, messageKey?: string) => new AdminError('forbidden', { messageKey, details });

export const NotFound = (messageKey?: string) => new AdminError('not_found', { messageKey });

export const Conflict = (code: CodeOfKind<'conflict'> | PluginErrorCode, messageKey?: string) =>
  ofKind('conflict', code, 'backend::errors.conflict', { messageKey });

/**
 * A 422 whose `details` name each offending field; the code (default `validation_failed`) and the
 * message key are optional; `omitted` counts problems found beyond `details` (docs/errors.md,
 * "Bounded refusals").
 */
export const Validation = (
  details: ErrorDetails,
  code: CodeOfKind<'validation'> | PluginErrorCode = 'validation_failed',
  messageKey?: string,
  omitted = 0,
) => ofKind('validation', code, 'backend::errors.validation_failed', { messageKey, details, omitted });

export const TooManyRequests = (retryAfterSeconds: number) =>
  new AdminError('too_many_requests', {
    params: { seconds: retryAfterSeconds },
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });

export const isAdminError = (error: unknown): error is AdminError => error instanceof AdminError;

/**
 * The code of a 422 made of field refusals (docs/errors.md, "The code of a failed save"): the one
 * code they all share, else `validation_failed` (also for `forbidden`, never the code of a 422).
 */
export function refusalCode(codes: Iterable<FieldErrorCode>): CodeOfKind<'validation'> | PluginErrorCode {
  const unique = new Set(codes);
  const [code] = unique;
  return unique.size === 1 && code !== undefined && code !== 'forbidden' ? code : 'validation_failed';
}
