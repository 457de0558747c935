import { type AdminError, type ErrorDetails, Validation } from './index.ts';
import type { CodeOfKind, PluginErrorCode } from './codes.ts';

/*
 * Bounded refusals (docs/errors.md, "Bounded refusals"): whatever a request sends, its refusal
 * keeps at most `MAX_DETAIL_FIELDS` fields with at most `MAX_FIELD_MESSAGES` messages each, and
 * the problems past that are only counted. Collectors stop storing (and translating) once full,
 * so what a refusal builds is bounded by these numbers, not by the body; `boundDetails` applies
 * the same bounds to any details once more when the envelope is made, with a byte budget, so no
 * refusal answer exceeds `MAX_REFUSAL_BYTES`.
 */

/** Fields a refusal's `details` names at most. */
export const MAX_DETAIL_FIELDS = 50;
/** Messages kept per field. */
export const MAX_FIELD_MESSAGES = 3;
/** Characters of a detail key answered: a longer key (a body key is anything a client sends) is cut, with "…". */
const MAX_DETAIL_KEY_CHARS = 120;
/** Characters of one message answered. */
const MAX_DETAIL_MESSAGE_CHARS = 400;
/** The largest refusal answer (the whole error body, as UTF-8 JSON). */
export const MAX_REFUSAL_BYTES = 16 * 1024;
/** What the kept fields may take of it: the rest is the code, the message and the closing count. */
const DETAILS_BUDGET_BYTES = 12 * 1024;

/**
 * How many problems refusals have materialized in this process (a detail message built, a
 * validator's error object): what the bounds limit. Tests read it to show that a refusal of a huge
 * body builds a bounded number of them (docs/errors.md, "Bounded refusals").
 */
export const refusalWork = { problems: 0 };

/** Counts `n` problems materialized (a validator's errors, a collector's messages). */
export const countProblems = (n: number): void => {
  refusalWork.problems += n;
};

/** Own, enumerable, writable: a key `__proto__` or `constructor` is a field like any other. */
function defineField(details: ErrorDetails, key: string, messages: string[]): void {
  Object.defineProperty(details, key, { value: messages, enumerable: true, writable: true, configurable: true });
}

/**
 * Collects field messages up to the bounds; past them it only counts (`omitted`). A message may be
 * given as a function, called only when it is kept, so a loop over a million keys translates at
 * most `MAX_DETAIL_FIELDS × MAX_FIELD_MESSAGES` messages.
 */
export class DetailsCollector {
  readonly details: ErrorDetails = {};
  #fields = 0;
  #omitted = 0;

  /** Problems found and not kept. */
  get omitted(): number {
    return this.#omitted;
  }

  /** Whether anything was refused. */
  get any(): boolean {
    return this.#fields > 0 || this.#omitted > 0;
  }

  /** Whether a new field would only be counted. */
  get full(): boolean {
    return this.#fields >= MAX_DETAIL_FIELDS;
  }

  add(key: string, message: string | (() => string)): void {
    const kept = Object.hasOwn(this.details, key) ? this.details[key]! : undefined;
    if (kept ? kept.length >= MAX_FIELD_MESSAGES : this.full) {
      this.#omitted += 1;
      return;
    }
    countProblems(1);
    const text = typeof message === 'string' ? message : message();
    if (kept) kept.push(text);
    else {
      defineField(this.details, key, [text]);
      this.#fields += 1;
    }
  }

  /** Counts problems found elsewhere and not kept (a nested refusal's own omitted ones). */
  omit(n: number): void {
    this.#omitted += n;
  }

  /** The 422 of what was collected. */
  refusal(code?: CodeOfKind<'validation'> | PluginErrorCode): AdminError {
    return Validation(this.details, code, undefined, this.#omitted);
  }
}

/** `text` cut to `max` characters with "…", never between the halves of a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** UTF-8 bytes of `value` as JSON. */
const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/**
 * `details` within the bounds: at most `MAX_DETAIL_FIELDS` fields (keys cut to
 * `MAX_DETAIL_KEY_CHARS`) of at most `MAX_FIELD_MESSAGES` messages (each cut to
 * `MAX_DETAIL_MESSAGE_CHARS`), within a byte budget. Answers the kept details and how many
 * messages were left out, `omitted` (problems counted elsewhere) included.
 */
export function boundDetails(details: ErrorDetails, omitted = 0): { details: ErrorDetails; more: number } {
  const kept: ErrorDetails = {};
  let fields = 0;
  let bytes = 2;
  let more = omitted;
  for (const [rawKey, messages] of Object.entries(details)) {
    const key = cut(rawKey, MAX_DETAIL_KEY_CHARS);
    let list = Object.hasOwn(kept, key) ? kept[key] : undefined;
    for (const message of messages) {
      const opens = list === undefined;
      if (opens ? fields >= MAX_DETAIL_FIELDS : list!.length >= MAX_FIELD_MESSAGES) {
        more += 1;
        continue;
      }
      const text = cut(String(message), MAX_DETAIL_MESSAGE_CHARS);
      const cost = jsonBytes(text) + 1 + (opens ? jsonBytes(key) + 3 : 0);
      if (bytes + cost > DETAILS_BUDGET_BYTES) {
        more += 1;
        continue;
      }
      bytes += cost;
      if (opens) {
        list = [];
        defineField(kept, key, list);
        fields += 1;
      }
      list!.push(text);
    }
  }
  return { details: kept, more };
}

/**
 * The closing entry of a bounded refusal: `body` ends with `moreText` (the body's own messages,
 * when kept, come first; at most `MAX_FIELD_MESSAGES` in all). It is the last key of the object.
 */
export function withMore(details: ErrorDetails, moreText: string): ErrorDetails {
  const body = Object.hasOwn(details, 'body') ? details.body!.slice(0, MAX_FIELD_MESSAGES - 1) : [];
  const out: ErrorDetails = {};
  for (const [key, messages] of Object.entries(details)) if (key !== 'body') defineField(out, key, messages);
  defineField(out, 'body', [...body, moreText]);
  return out;
}

/** The 422 naming each of `keys` with `message` ("This key is not allowed here."), within the bounds. */
export function keysRefusal(keys: Iterable<string>, message: () => string): AdminError {
  const collector = new DetailsCollector();
  for (const key of keys) collector.add(key, message);
  return collector.refusal();
}
