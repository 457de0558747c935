/**
 * A start-up error: the message names what is wrong and how to fix it, and where (plugin,
 * controller, key).
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }

  static at(where: { plugin?: string; controller?: string; key?: string }, problem: string, fix: string): ConfigError {
    const place = [
      where.plugin && `plugin "${where.plugin}"`,
      where.controller && `controller "${where.controller}"`,
      where.key && `key "${where.key}"`,
    ]
      .filter(Boolean)
      .join(', ');
    return new ConfigError(`${place ? `${place}: ` : ''}${problem}. ${fix}`);
  }
}
