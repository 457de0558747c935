/**
 * The one small family of typed errors. Core code throws these; the adapter maps them to the
 * error envelope `{error:{code,message,details}}` with the status from `STATUS_BY_KIND`, in
 * exactly one place (`toErrorResponse`). Anything that is not an `AdminError` is an opaque 500.
 */

export type ErrorDetails = Record<string, string[]>;

export type ErrorKind = 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'validation' | 'too_many_requests';

export const STATUS_BY_KIND: Record<ErrorKind, number> = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  validation: 422,
  too_many_requests: 429,
};

/**
 * `messageKey` is a string key resolved in the request's locale when the envelope is built;
 * `params` fill its placeholders. Field messages in `details` are already localized by whoever
 * built them (see `validation/`).
 */
export class AdminError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly messageKey: string;
  readonly params: Record<string, string | number>;
  readonly details: ErrorDetails;
  readonly headers: Record<string, string>;

  constructor(
    kind: ErrorKind,
    code: string,
    messageKey: string,
    options: {
      params?: Record<string, string | number>;
      details?: ErrorDetails;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(`${code}: ${messageKey}`);
    this.name = 'AdminError';
    this.kind = kind;
    this.code = code;
    this.messageKey = messageKey;
    this.params = options.params ?? {};
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return STATUS_BY_KIND[this.kind];
  }
}

export const Unauthorized = (messageKey = 'backend::errors.unauthenticated', code = 'unauthenticated') =>
  new AdminError('unauthorized', code, messageKey);

export const Forbidden = (messageKey = 'backend::errors.forbidden', details?: ErrorDetails) =>
  new AdminError('forbidden', 'forbidden', messageKey, { details });

export const NotFound = (messageKey = 'backend::errors.not_found') => new AdminError('not_found', 'not_found', messageKey);

export const Conflict = (code: string, messageKey = 'backend::errors.conflict') => new AdminError('conflict', code, messageKey);

/** A 422 whose `details` name each offending field. */
export const Validation = (details: ErrorDetails, code = 'validation_failed', messageKey = 'backend::errors.validation_failed') =>
  new AdminError('validation', code, messageKey, { details });

export const TooManyRequests = (retryAfterSeconds: number) =>
  new AdminError('too_many_requests', 'too_many_requests', 'backend::errors.too_many_requests', {
    params: { seconds: retryAfterSeconds },
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });

export const isAdminError = (error: unknown): error is AdminError => error instanceof AdminError;
