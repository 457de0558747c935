import type { Message } from './strings.ts';

/** Every key of any locale of a table (a key one locale lacks falls back at run time). */
export type StringKeyOf<T> =
  T extends Readonly<Record<string, infer Messages>> ? (Messages extends unknown ? keyof Messages & string : never) : never;

/** A plugin's string table with typed keys (docs/strings.md, "Typed keys"). */
export interface DefinedStrings<N extends string, T> {
  /** The plugin code the keys are served under (`acme.catalog`). */
  readonly namespace: N;
  /** The table, for the plugin's `strings`. */
  readonly table: T;
  /** `s('products.title')` is `'acme.catalog::products.title'`; a key the table lacks is a compile error. */
  readonly s: <K extends StringKeyOf<T>>(key: K) => `${N}::${K}`;
}

/**
 * Types a plugin's string keys: `const { s, table } = defineStrings('acme.catalog', { en: {…}, de: {…} })`,
 * then `label: s('products.title')` and `strings: table` in `definePlugin`. `s('products.titel')`
 * does not compile. Start-up still checks every key against every served locale
 * (docs/strings.md, "Checked at start-up").
 */
export function defineStrings<const N extends string, const T extends Readonly<Record<string, Readonly<Record<string, Message>>>>>(
  namespace: N,
  table: T,
): DefinedStrings<N, T> {
  return Object.freeze({
    namespace,
    table,
    s: <K extends StringKeyOf<T>>(key: K) => `${namespace}::${key}` as `${N}::${K}`,
  });
}
