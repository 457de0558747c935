/** Decimal strings compared digit by digit: money never goes through a float. */

export const DECIMAL = /^-?\d+(\.\d+)?$/;

export const fractionDigits = (value: string): number => value.split('.')[1]?.length ?? 0;

/** Digits before the point, leading zeros dropped (`-007.50` has 1). */
export const integerDigits = (value: string): number => value.replace(/^-/, '').split('.')[0]!.replace(/^0+/, '').length;

/** Compares |a| with |b| (both matching `DECIMAL`): -1, 0 or 1. */
export function compareAbs(a: string, b: string): -1 | 0 | 1 {
  const [aInt = '', aFrac = ''] = a.replace(/^-/, '').split('.');
  const [bInt = '', bFrac = ''] = b.replace(/^-/, '').split('.');
  const ai = aInt.replace(/^0+/, '');
  const bi = bInt.replace(/^0+/, '');
  if (ai.length !== bi.length) return ai.length < bi.length ? -1 : 1;
  if (ai !== bi) return ai < bi ? -1 : 1;
  const width = Math.max(aFrac.length, bFrac.length);
  const af = aFrac.padEnd(width, '0');
  const bf = bFrac.padEnd(width, '0');
  return af === bf ? 0 : af < bf ? -1 : 1;
}

const isZero = (value: string): boolean => /^-?0*(\.0*)?$/.test(value);

/** Compares a with b (both matching `DECIMAL`), signs included: -1, 0 or 1. `-0` equals `0`. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const aNegative = a.startsWith('-') && !isZero(a);
  const bNegative = b.startsWith('-') && !isZero(b);
  if (aNegative !== bNegative) return aNegative ? -1 : 1;
  const abs = compareAbs(a, b);
  return aNegative ? ((-abs || 0) as -1 | 0 | 1) : abs;
}

/** A configured decimal (money `min`) as a string, sign allowed; undefined when it is not one. */
export function signedDecimalOf(value: string | number): string | undefined {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  return DECIMAL.test(text) ? text : undefined;
}

/** A configured `max` as a decimal string; undefined when it is not a non-negative decimal. */
export function decimalOf(value: string | number): string | undefined {
  // String(1e21) is "1e+21": exponent forms fail the pattern and are refused, not misread.
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  return DECIMAL.test(text) && !text.startsWith('-') ? text : undefined;
}
