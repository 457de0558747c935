/**
 * Numbers as a person types them in their locale, and back (docs/admin-ui.md, "Forms"): no
 * `type=number` (its wheel and locale traps), no float for money. Unit-tested in
 * `test/numbers.test.ts`.
 */

/** The decimal separator of a locale: `.` in en, `,` in de. */
function decimalSeparator(locale: string): string {
  return new Intl.NumberFormat(locale).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
}

/**
 * A typed number as a plain decimal string (`-1234.5`), or undefined when it is not one. Spaces
 * and apostrophes group digits; with both `.` and `,` the last one is the decimal point; with one
 * of them, it is the decimal point when it appears once (`1,5` and `1.5` both mean one and a half
 * in de), except the locale's grouping mark before exactly three digits (`1,500` in en), and it
 * groups when it appears more than once (`1.000.000`).
 */
export function parseDecimal(text: string, locale: string): string | undefined {
  let compact = text.trim().replace(/[\s\u00a0\u202f'’]/g, '');
  const sign = compact.startsWith('-') || compact.startsWith('\u2212') ? '-' : '';
  if (sign || compact.startsWith('+')) compact = compact.slice(1);
  if (!/^[0-9.,]+$/.test(compact) || !/[0-9]/.test(compact)) return undefined;
  const lastDot = compact.lastIndexOf('.');
  const lastComma = compact.lastIndexOf(',');
  let decimal: string | undefined;
  if (lastDot >= 0 && lastComma >= 0) decimal = lastDot > lastComma ? '.' : ',';
  else if (lastDot >= 0 || lastComma >= 0) {
    const mark = lastDot >= 0 ? '.' : ',';
    const at = Math.max(lastDot, lastComma);
    const once = compact.indexOf(mark) === at;
    const grouping = mark !== decimalSeparator(locale) && compact.length - at - 1 === 3;
    decimal = once && !grouping ? mark : undefined;
  }
  const group = decimal === '.' ? ',' : decimal === ',' ? '.' : /[.,]/;
  const [whole = '', fraction, extra] = compact.split(decimal ?? '\u0000');
  if (extra !== undefined) return undefined;
  const digits = whole.split(group).join('');
  if (!/^\d*$/.test(digits) || (fraction !== undefined && !/^\d+$/.test(fraction))) return undefined;
  const normal = `${digits.replace(/^0+(?=\d)/, '') || '0'}${fraction === undefined ? '' : `.${fraction}`}`;
  return `${sign}${normal}`;
}

/** A plain decimal string in the locale's spelling, without grouping: `49.90` → `49,90` in de. */
export function showDecimal(value: string, locale: string): string {
  return value.replace('.', decimalSeparator(locale));
}
