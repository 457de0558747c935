import { expect } from 'vitest';
import { ConfigError, type ConfigErrorCode, type ConfigErrorPlace } from '../../src/errors/config.ts';

/**
 * Runs `start` and asserts it fails with a `ConfigError` of `code` (docs/errors.md, "Start-up
 * errors"), at `where` when given (plugin, controller, key; the keys given must match): tests assert
 * the code and place, not the wording of the message. Answers the error. Works for a sync or an
 * async `start` (await the answer of an async one).
 */
export function expectConfigError(
  start: () => unknown,
  code: ConfigErrorCode,
  where?: ConfigErrorPlace,
): ConfigError | Promise<ConfigError> {
  let outcome: unknown;
  try {
    outcome = start();
  } catch (error) {
    return assertConfigError(error, code, where);
  }
  if (outcome instanceof Promise) {
    return outcome.then(
      () => assertConfigError(undefined, code, where),
      (error: unknown) => assertConfigError(error, code, where),
    );
  }
  return assertConfigError(undefined, code, where);
}

/** Asserts `error` is a ConfigError of `code` (and `where`); the message is shown on a mismatch. */
export function assertConfigError(error: unknown, code: ConfigErrorCode, where: ConfigErrorPlace = {}): ConfigError {
  if (!(error instanceof ConfigError)) {
    expect.fail(`expected a ConfigError [${code}], got ${error === undefined ? 'no error' : String(error)}`);
  }
  expect({ code: error.code, where: error.where, message: error.message }).toMatchObject({ code, where });
  return error;
}

/** A refusal as table-driven tests list it: the code, and the key the error names (when given). */
export type Refusal = { readonly code: ConfigErrorCode; readonly key?: string };

/** `expectConfigError` for a synchronous `start` and a `Refusal`. */
export function expectRefusal(start: () => unknown, { code, key }: Refusal): ConfigError {
  return expectConfigError(start, code, key === undefined ? {} : { key }) as ConfigError;
}
