import { ValidationError, type AnyObjectSchema, type InferType } from 'yup';
import { Validation, type ErrorDetails } from '../errors/index.ts';
import type { Strings } from '../i18n/strings.ts';

import { isPlainObject } from './values.ts';

export { isPlainObject };

/**
 * Own keys only: a body key such as `toString` or `__proto__` names a field like any other and
 * must neither read nor write the prototype (it used to answer a 500).
 */
const addDetail = (details: ErrorDetails, field: string, message: string) => {
  const list = Object.hasOwn(details, field) ? details[field]! : [];
  if (!list.includes(message)) list.push(message);
  Object.defineProperty(details, field, { value: list, enumerable: true, writable: true, configurable: true });
};

/** Turns one yup error into a localized message; custom tests may use a string key as message. */
function messageFor(error: ValidationError, strings: Strings, locale: string): string {
  const params = (error.params ?? {}) as Record<string, unknown>;
  const raw = typeof error.message === 'string' ? error.message : '';
  if (raw.includes('::')) {
    const count = typeof params.count === 'number' ? params.count : undefined;
    return strings.t(locale, raw, params as Record<string, string | number>, count);
  }
  switch (error.type) {
    case 'required':
    case 'defined':
    case 'nullable':
      return strings.t(locale, 'backend::validation.required');
    case 'typeError': {
      const type = String(params.type ?? '');
      const key = ['string', 'boolean', 'object', 'array'].includes(type) ? type : type === 'number' ? 'integer' : 'invalid';
      return strings.t(locale, `backend::validation.${key}`);
    }
    case 'integer':
      return strings.t(locale, 'backend::validation.integer');
    case 'min':
      return strings.t(locale, 'backend::validation.min_length', {}, Number(params.min));
    case 'max':
      return strings.t(locale, 'backend::validation.max_length', {}, Number(params.max));
    case 'email':
      return strings.t(locale, 'backend::validation.email');
    case 'oneOf':
      return strings.t(locale, 'backend::validation.one_of', { values: String(params.values ?? '') });
    default:
      return strings.t(locale, 'backend::validation.invalid');
  }
}

/**
 * Validates a JSON body strictly: it must be an object, unknown keys are each named in
 * `details`, and types are not coerced. Throws a 422 `validation_failed`; returns the value.
 */
export function validateBody<S extends AnyObjectSchema>(schema: S, body: unknown, strings: Strings, locale: string): InferType<S> {
  if (body === undefined || body === null) body = {};
  if (!isPlainObject(body)) {
    throw Validation({ body: [strings.t(locale, 'backend::validation.body_object')] });
  }
  const details: ErrorDetails = {};
  const known = new Set(Object.keys(schema.fields));
  for (const key of Object.keys(body)) {
    if (!known.has(key)) addDetail(details, key, strings.t(locale, 'backend::validation.unknown_key'));
  }
  try {
    schema.validateSync(body, { abortEarly: false, strict: true });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const inner = error.inner.length ? error.inner : [error];
    for (const e of inner) {
      if (e.type === 'noUnknown') continue; // reported per key above
      addDetail(details, e.path || 'body', messageFor(e, strings, locale));
    }
  }
  if (Object.keys(details).length) throw Validation(details);
  return body as InferType<S>;
}
