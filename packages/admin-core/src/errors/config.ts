import { isConfigErrorCode, type ConfigErrorCode } from './config-codes.ts';

export { CONFIG_ERROR_CODES, type ConfigErrorCode } from './config-codes.ts';

/**
 * A start-up error (docs/errors.md, "Start-up errors"): a `code` from the closed table
 * `CONFIG_ERROR_CODES`, and a message that names what is wrong, where (plugin, controller, key)
 * and how to fix it. The message stays free of the code, so it reads as a sentence wherever it is
 * quoted; the terminal line (`String(error)`, the stack's first line, the CLI) is Node's own shape,
 * `ConfigError [config_secret_short]: key "secret": …`.
 */
/** Where a start-up problem is: the plugin, controller and key, outermost first. */
export interface ConfigErrorPlace {
  plugin?: string;
  controller?: string;
  key?: string;
}

export class ConfigError extends Error {
  readonly code: ConfigErrorCode;
  /** The place the message names (set by `at`), for code that reports or tests it without parsing the message. */
  readonly where: Readonly<ConfigErrorPlace>;

  constructor(code: ConfigErrorCode, message: string, where: ConfigErrorPlace = {}) {
    // A code outside the table is a bug of the call site (JavaScript callers have no type check).
    if (!isConfigErrorCode(code)) throw new TypeError(`ConfigError: unknown start-up error code ${JSON.stringify(code)}`);
    super(message);
    this.code = code;
    this.where = Object.freeze({ ...where });
    // The stack's first line is formatted on first read: read it under the coded name, as Node's
    // own errors do, then keep the plain class name for `error.name` checks.
    this.name = `ConfigError [${code}]`;
    void this.stack;
    this.name = 'ConfigError';
  }

  override toString(): string {
    return `${this.name} [${this.code}]: ${this.message}`;
  }

  /** `plugin "acme.shop", controller "acme/shop/orders", key "list.columns": {problem}. {fix}` */
  static at(code: ConfigErrorCode, where: ConfigErrorPlace, problem: string, fix: string): ConfigError {
    const place = [
      where.plugin && `plugin "${where.plugin}"`,
      where.controller && `controller "${where.controller}"`,
      where.key && `key "${where.key}"`,
    ]
      .filter(Boolean)
      .join(', ');
    return new ConfigError(code, `${place ? `${place}: ` : ''}${problem}. ${fix}`, where);
  }
}
