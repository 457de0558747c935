/**
 * Strings from `GET /lang` (docs/admin-ui.md, "Strings, locale and theme"): each key is an object of
 * CLDR plural forms; `t` picks the form with `Intl.PluralRules` and fills `{name}` placeholders.
 * The application's own strings are the core's `backend::ui.*` keys, so one table and one plural
 * engine serve both. Numbers, dates and money are formatted with `Intl` in the same locale.
 */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>>;

export type Params = Record<string, string | number>;

/** Locales written right to left (the test-only one included: docs/admin-ui.md, "Right to left"). */
const RTL = new Set(['ar', 'fa', 'he', 'ur', 'yi', 'ps', 'sd', 'ug', 'dv', 'ckb']);

export class I18n {
  readonly locale: string;
  readonly #strings: Record<string, PluralForms>;
  readonly #plural: Intl.PluralRules;
  readonly #numbers: Intl.NumberFormat;

  constructor(locale: string, strings: Record<string, PluralForms>) {
    this.locale = locale;
    this.#strings = strings;
    this.#plural = new Intl.PluralRules(locale);
    this.#numbers = new Intl.NumberFormat(locale);
  }

  get dir(): 'ltr' | 'rtl' {
    return RTL.has(this.locale.split('-')[0]!.toLowerCase()) ? 'rtl' : 'ltr';
  }

  /** The application's string `backend::ui.{key}`; the key itself when the table lacks it. */
  t(key: string, params?: Params, count?: number): string {
    const forms = this.#strings[`backend::ui.${key}`];
    return forms ? this.forms(forms, params, count) : key;
  }

  /** Any string key of the bundle (`backend::errors.forbidden`, a plugin's). */
  key(full: string, params?: Params, count?: number): string | undefined {
    const forms = this.#strings[full];
    return forms ? this.forms(forms, params, count) : undefined;
  }

  /** Plural forms as the API sends them (a ListSchema's `messages`), filled in. */
  forms(forms: PluralForms | string | undefined, params: Params = {}, count?: number): string {
    if (forms === undefined) return '';
    if (typeof forms === 'string') return fill(forms, params, this.#numbers);
    const rule = count === undefined ? 'other' : this.#plural.select(count);
    const text = forms[rule] ?? forms.other ?? Object.values(forms)[0] ?? '';
    return fill(text, count === undefined ? params : { count, ...params }, this.#numbers);
  }

  number(value: number): string {
    return this.#numbers.format(value);
  }

  date(value: string, withTime: boolean): string {
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) return value;
    return new Intl.DateTimeFormat(
      this.locale,
      withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium', timeZone: 'UTC' },
    ).format(date);
  }

  money(value: string | number, currency: string): string {
    const amount = typeof value === 'number' ? value : Number(value);
    if (!Number.isFinite(amount)) return String(value);
    try {
      return new Intl.NumberFormat(this.locale, { style: 'currency', currency }).format(amount);
    } catch {
      return `${this.number(amount)} ${currency}`;
    }
  }
}

function fill(text: string, params: Params, numbers: Intl.NumberFormat): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? numbers.format(value) : value;
  });
}
