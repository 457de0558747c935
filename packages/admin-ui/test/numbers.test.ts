import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseDecimal, showDecimal } from '../src/form/numbers.ts';

describe('parseDecimal: a number as a person types it', () => {
  test('the locale decimal mark, grouping, signs', () => {
    expect(parseDecimal('1,5', 'de')).toBe('1.5');
    expect(parseDecimal('1.5', 'de')).toBe('1.5');
    expect(parseDecimal('1.234,56', 'de')).toBe('1234.56');
    expect(parseDecimal('1,234.56', 'en')).toBe('1234.56');
    expect(parseDecimal('1,500', 'en')).toBe('1500');
    expect(parseDecimal('1.500', 'de')).toBe('1500');
    expect(parseDecimal('1 000 000', 'fr')).toBe('1000000');
    expect(parseDecimal('-0,25', 'de')).toBe('-0.25');
    expect(parseDecimal('007.10', 'en')).toBe('7.10');
    expect(parseDecimal('49.90', 'en')).toBe('49.90');
  });

  test('what is not a number is undefined', () => {
    for (const text of ['', 'abc', '1.2.3,4,5', '1e5', '--1', '1,2,3.4.5', '.']) expect(parseDecimal(text, 'en')).toBeUndefined();
  });

  test('a served decimal shown in any locale reads back exactly (never through a float)', () => {
    const decimal = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 18n }), fc.option(fc.stringMatching(/^\d{1,4}$/)), fc.boolean())
      .map(([whole, fraction, negative]) => `${negative ? '-' : ''}${whole}${fraction === null ? '' : `.${fraction}`}`);
    fc.assert(
      fc.property(decimal, fc.constantFrom('en', 'de', 'fr', 'ar'), (value, locale) => {
        expect(parseDecimal(showDecimal(value, locale), locale)).toBe(value);
      }),
    );
  });
});
