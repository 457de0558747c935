import { describe, expect, it } from 'vitest';
import { catalogPlugin } from '../../src/plugins/catalog.ts';

/** The catalog's string table is complete in en and de, with the same plural categories (docs/strings.md). */
describe("acme/catalog's string table", () => {
  it('has every key of en in de and the other way round, with the same forms', () => {
    const en = catalogPlugin.strings?.en ?? {};
    const de = catalogPlugin.strings?.de ?? {};
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    const shape = (message: unknown) => (typeof message === 'string' ? ['other'] : Object.keys(message as object).sort());
    for (const key of Object.keys(en)) expect({ key, forms: shape(de[key]) }).toEqual({ key, forms: shape(en[key]) });
  });
});
