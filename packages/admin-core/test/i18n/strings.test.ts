import { describe, expect, it } from 'vitest';
import { journalPlugin } from '../../../journal/src/index.ts';
import { coreStrings } from '../../src/i18n/core-strings.ts';
import { negotiateLocale, Strings, type StringTable } from '../../src/i18n/strings.ts';

const strings = () => {
  const s = new Strings(['en', 'de', 'pl'], 'en');
  s.add('backend', coreStrings);
  s.add('test', {
    en: {
      files: { one: '{count} file', other: '{count} files' },
      plain: 'Hello {name}',
      only_en: 'English only',
    },
    de: { files: { one: '{count} Datei', other: '{count} Dateien' }, plain: 'Hallo {name}' },
    pl: { files: { one: '{count} plik', few: '{count} pliki', many: '{count} plików', other: '{count} pliku' } },
    fr: { plain: 'Bonjour' },
  });
  return s;
};

describe('Strings.t', () => {
  it('picks `one` or `other` by Intl.PluralRules', () => {
    const s = strings();
    expect(s.t('en', 'test::files', {}, 1)).toBe('1 file');
    expect(s.t('en', 'test::files', {}, 0)).toBe('0 files');
    expect(s.t('en', 'test::files', {}, 2)).toBe('2 files');
    expect(s.t('de', 'test::files', {}, 1)).toBe('1 Datei');
    expect(s.t('de', 'test::files', {}, 5)).toBe('5 Dateien');
  });

  it("uses the locale's own categories (Polish few/many) and falls back to `other`", () => {
    const s = strings();
    expect(s.t('pl', 'test::files', {}, 1)).toBe('1 plik');
    expect(s.t('pl', 'test::files', {}, 3)).toBe('3 pliki');
    expect(s.t('pl', 'test::files', {}, 5)).toBe('5 plików');
    expect(s.t('pl', 'test::files', {}, 1.5)).toBe('1.5 pliku');
  });

  it('takes the count from params.count when no count is passed', () => {
    expect(strings().t('en', 'test::files', { count: 1 })).toBe('1 file');
    expect(strings().t('en', 'test::files', { count: 4 })).toBe('4 files');
  });

  it('fills {count} from the count argument (regression: placeholder was left in the message)', () => {
    const s = strings();
    expect(s.t('en', 'backend::validation.min_length', {}, 6)).toBe('This field must have at least 6 characters.');
    expect(s.t('en', 'backend::validation.max_length', {}, 1)).toBe('This field may have at most 1 character.');
  });

  it('fills named placeholders and leaves unknown ones visible', () => {
    const s = strings();
    expect(s.t('de', 'test::plain', { name: 'Ada' })).toBe('Hallo Ada');
    expect(s.t('en', 'test::plain')).toBe('Hello {name}');
  });

  it('falls back to the fallback locale, and answers an unknown key with the key', () => {
    const s = strings();
    expect(s.t('de', 'test::only_en')).toBe('English only');
    expect(s.t('xx', 'test::plain', { name: 'x' })).toBe('Hello x');
    expect(s.t('en', 'test::nope')).toBe('test::nope');
  });

  it("ignores a table's locale the host does not serve", () => {
    const s = strings();
    expect(s.bundle('de')['test::plain']).toEqual({ other: 'Hallo {name}' });
    expect(s.locales).not.toContain('fr');
  });
});

describe('Strings.bundle', () => {
  it("holds every key of the fallback locale, the locale's own forms first", () => {
    const s = strings();
    const en = s.bundle('en');
    const de = s.bundle('de');
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    expect(de['test::only_en']).toEqual({ other: 'English only' });
    expect(de['test::files']).toEqual({ one: '{count} Datei', other: '{count} Dateien' });
    expect(de['backend::errors.not_found']).toEqual({ other: 'Nicht gefunden.' });
  });

  it('is rebuilt after a table is added', () => {
    const s = strings();
    expect(s.bundle('en')['late::x']).toBeUndefined();
    s.add('late', { en: { x: 'X' } });
    expect(s.bundle('en')['late::x']).toEqual({ other: 'X' });
  });
});

describe('negotiateLocale', () => {
  const supported = ['en', 'de', 'pt-BR'];
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['de', 'de'],
    ['de-AT', 'de'],
    ['DE-at', 'de'],
    ['fr, de;q=0.5', 'de'],
    ['en;q=0.2, de;q=0.8', 'de'],
    ['de;q=0, en;q=0.1', 'en'],
    ['pt-br', 'pt-BR'],
    ['pt', 'pt-BR'],
    ['pt-PT, en;q=0.1', 'pt-BR'],
    ['*', 'en'],
    ['xx, yy', 'en'],
    ['de;q=nonsense', 'en'],
    ['de ; q = 0.5 , en ; q = 0.4', 'de'],
  ])('%j → %s', (header, expected) => {
    expect(negotiateLocale(header, supported, 'en')).toBe(expected);
  });
});

/** Every key of a table's `en` exists in `de` and vice versa, with the same plural categories. */
function expectSameKeys(table: StringTable) {
  const en = table.en ?? {};
  const de = table.de ?? {};
  expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
  for (const key of Object.keys(en)) {
    const shape = (m: unknown) => (typeof m === 'string' ? ['other'] : Object.keys(m as object).sort());
    expect({ key, forms: shape(de[key]) }).toEqual({ key, forms: shape(en[key]) });
  }
}

describe('string tables are complete in en and de', () => {
  it('core', () => expectSameKeys(coreStrings));
  it('cms/journal', () => expectSameKeys(journalPlugin.strings));
});
