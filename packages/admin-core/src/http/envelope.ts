import { ERROR_CODES, statusOf } from '../errors/codes.ts';
import { boundDetails, withMore } from '../errors/details.ts';
import { AdminError, isAdminError, type ErrorDetails } from '../errors/index.ts';
import { isTransientDatabaseError } from '../errors/transient.ts';
import type { Logger } from '../config/resolved.ts';
import type { Strings } from '../i18n/strings.ts';
import type { AdminResponse } from './types.ts';

/** Success envelope `{data, meta}` (docs/architecture.md, "Request flow"). */
export const ok = (data: unknown, meta: Record<string, unknown> = {}, status = 200): AdminResponse => ({
  status,
  body: { data, meta },
});

export interface ErrorBody {
  error: { code: string; message: string; details: Record<string, string[]> };
  /** Only beside a 412 `version_mismatch`: the current record or settings form (docs/errors.md, "The envelope"). */
  data?: unknown;
  exists?: boolean;
  meta?: Record<string, unknown>;
}

/**
 * Field messages are localized where they are built; a message that is still a string key
 * (`namespace::key`, as plugin hooks write them, having no locale) is translated here. The
 * details are bounded first (docs/errors.md, "Bounded refusals"): at most 50 fields of at most 3
 * messages, the rest counted in a closing `body` entry that `message` repeats.
 */
function localizeDetails(error: AdminError, strings: Strings, locale: string): { details: ErrorDetails; more: string | undefined } {
  const localize = (message: string) => (/^[a-z0-9_.-]+::[a-z0-9_.-]+$/i.test(message) ? strings.t(locale, message) : message);
  const bounded = boundDetails(error.details, error.omitted);
  // fromEntries defines own properties, so a field named `__proto__` stays a field.
  const details = Object.fromEntries(Object.entries(bounded.details).map(([field, messages]) => [field, messages.map(localize)]));
  if (bounded.more === 0) return { details, more: undefined };
  const more = strings.t(locale, 'backend::errors.more_problems', { count: bounded.more }, bounded.more);
  return { details: withMore(details, more), more };
}

/** Where an opaque 500 is logged: the request it answered (docs/architecture.md, "Request flow"). */
interface FailureLog {
  logger: Logger;
  method: string;
  path: string;
}

/**
 * The one place where a thrown error becomes the error envelope, for every route, plugin routes
 * included, whatever the adapter. An `AdminError` keeps its status, code and details; a transient
 * database failure is a 409 `transient_conflict`; anything else is an opaque 500 that names only
 * the request id, and is logged once here with the error when `log` says where.
 */
export function toErrorResponse(
  thrown: unknown,
  strings: Strings,
  locale: string,
  requestId: string,
  log?: FailureLog,
): AdminResponse & { body: ErrorBody } {
  // A deadlock or serialization failure outside a retried transaction (one statement on its own)
  // is a 409 all the same, never a 500 (docs/errors.md, "Transient conflicts").
  const error = isTransientDatabaseError(thrown) ? new AdminError('transient_conflict') : thrown;
  if (isAdminError(error)) {
    const count = typeof error.params.seconds === 'number' ? error.params.seconds : undefined;
    const { details, more } = localizeDetails(error, strings, locale);
    const message = strings.t(locale, error.messageKey, { ...error.params, count: count ?? '' }, count);
    return {
      status: error.status,
      headers: { ...error.headers },
      body: {
        error: {
          code: error.code,
          message: more === undefined ? message : `${message} ${more}`,
          details,
        },
        ...(error.current
          ? {
              data: error.current.data,
              ...(error.current.exists === undefined ? {} : { exists: error.current.exists }),
              meta: error.current.meta,
            }
          : {}),
      },
    };
  }
  log?.logger.error('unexpected error', {
    request_id: requestId,
    method: log.method,
    path: log.path,
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  return {
    status: statusOf('internal_error'),
    headers: {},
    body: {
      error: {
        code: 'internal_error',
        message: strings.t(locale, ERROR_CODES.internal_error.messageKey, { request_id: requestId }),
        details: {},
      },
    },
  };
}
