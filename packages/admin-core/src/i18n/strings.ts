/**
 * String bundles: message key to plural forms. A message is either a plain string (served as
 * `{other}`) or an object of CLDR plural categories. Placeholders are `{name}`.
 */
type PluralCategory = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
export type Message = string | (Partial<Record<PluralCategory, string>> & { other: string });
export type Messages = Record<string, Message>;
/** Locale to messages, as a plugin or the core declares them. */
export type StringTable = Record<string, Messages>;
export type PluralForms = Partial<Record<PluralCategory, string>> & { other: string };
export type LangBundle = Record<string, PluralForms>;

/** Several tables as one (later tables win on the same key): a plugin may split its strings by feature. */
export const mergeStringTables = (...tables: StringTable[]): StringTable => {
  const merged: StringTable = {};
  for (const table of tables) for (const [locale, messages] of Object.entries(table)) merged[locale] = { ...merged[locale], ...messages };
  return merged;
};

const toPluralForms = (message: Message): PluralForms => (typeof message === 'string' ? { other: message } : { ...message });

export class Strings {
  readonly #byLocale = new Map<string, Map<string, PluralForms>>();
  readonly #bundles = new Map<string, LangBundle>();
  readonly #plural = new Map<string, Intl.PluralRules>();
  readonly locales: readonly string[];
  readonly fallbackLocale: string;

  constructor(locales: readonly string[], fallbackLocale: string) {
    this.locales = locales;
    this.fallbackLocale = fallbackLocale;
    for (const locale of locales) this.#byLocale.set(locale, new Map());
  }

  /** Adds a table under a namespace (`backend`, `cms.journal`): keys become `namespace::key`. */
  add(namespace: string, table: StringTable): void {
    for (const [locale, messages] of Object.entries(table)) {
      const target = this.#byLocale.get(locale);
      if (!target) continue; // a locale the host does not serve
      for (const [key, message] of Object.entries(messages)) target.set(`${namespace}::${key}`, toPluralForms(message));
    }
    this.#bundles.clear();
  }

  has(key: string): boolean {
    return this.#byLocale.get(this.fallbackLocale)?.has(key) ?? false;
  }

  forms(locale: string, key: string): PluralForms | undefined {
    return this.#byLocale.get(locale)?.get(key) ?? this.#byLocale.get(this.fallbackLocale)?.get(key);
  }

  /** Every key of the fallback locale, with the locale's own message where it has one. */
  bundle(locale: string): LangBundle {
    const cached = this.#bundles.get(locale);
    if (cached) return cached;
    const bundle: LangBundle = {};
    const fallback = this.#byLocale.get(this.fallbackLocale) ?? new Map();
    const own = this.#byLocale.get(locale) ?? new Map();
    for (const [key, forms] of fallback) bundle[key] = own.get(key) ?? forms;
    for (const [key, forms] of own) bundle[key] ??= forms;
    Object.freeze(bundle);
    this.#bundles.set(locale, bundle);
    return bundle;
  }

  /** Translates `key`; an unknown key answers itself so a missing string is visible, not fatal. */
  t(locale: string, key: string, params: Record<string, string | number> = {}, count?: number): string {
    const forms = this.forms(locale, key);
    if (!forms) return key;
    let template = forms.other;
    let values = params;
    const n = count ?? (typeof params.count === 'number' ? params.count : undefined);
    if (n !== undefined) {
      // The rules of the locale whose message is used: a German message chosen with English
      // rules could ask for a form German does not have.
      const source = this.#byLocale.get(locale)?.has(key) ? locale : this.fallbackLocale;
      const category = this.#rules(source).select(n) as PluralCategory;
      template = forms[category] ?? forms.other;
      // `{count}` in a plural message is the count, unless the caller passed its own text.
      if (!('count' in params) || params.count === '') values = { ...params, count: n };
    }
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
  }

  #rules(locale: string): Intl.PluralRules {
    let rules = this.#plural.get(locale);
    if (!rules) {
      rules = new Intl.PluralRules(locale);
      this.#plural.set(locale, rules);
    }
    return rules;
  }
}

/**
 * Picks the best supported locale from an `Accept-Language` header (RFC 9110 12.5.4), in the
 * header's quality order: the exact tag first, then its primary subtag (`de-AT` serves `de`),
 * then a served regional variant of that language (`pt` or `pt-PT` serves `pt-BR`). A malformed
 * entry or quality is skipped, never an error.
 */
export function negotiateLocale(header: string | undefined, supported: readonly string[], fallback: string): string {
  if (!header) return fallback;
  const wanted = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...rest] = part.split(';').map((piece) => piece.trim());
      const q = rest.map((r) => r.replace(/\s+/g, '')).find((r) => r.toLowerCase().startsWith('q='));
      const quality = q === undefined ? 1 : /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(q.slice(2)) ? Number(q.slice(2)) : 0;
      return { tag: tag.toLowerCase(), quality, index };
    })
    .filter((entry) => /^[a-z]{1,8}(-[a-z0-9]{1,8})*$/.test(entry.tag) && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  const lower = new Map(supported.map((locale) => [locale.toLowerCase(), locale]));
  const primaryOf = (tag: string) => tag.split('-')[0]!;
  for (const { tag } of wanted) {
    const match =
      lower.get(tag) ?? lower.get(primaryOf(tag)) ?? supported.find((locale) => primaryOf(locale.toLowerCase()) === primaryOf(tag));
    if (match) return match;
  }
  return fallback;
}

export const matchLocale = (value: unknown, supported: readonly string[]): string | undefined => {
  if (typeof value !== 'string') return undefined;
  const lower = value.toLowerCase();
  return supported.find((locale) => locale.toLowerCase() === lower);
};
