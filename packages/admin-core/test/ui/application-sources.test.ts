import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { uiStrings } from '../../src/i18n/ui-strings.ts';

/*
 * The admin application's sources, read as text (the core never imports the application).
 *
 * Its strings (`backend::ui.*`, docs/admin-ui.md, "Strings, locale and
 * theme") and its sources agree: every key the application asks for with `t('…')` is in the
 * table, in `en` and `de`, and the table holds no key the application never asks for. The
 * sources are read as text: the core never imports the application.
 */

const SOURCES = fileURLToPath(new URL('../../../admin-ui/src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** `t('key'` and `` t(`theme_${value}` `` (the theme names spelled out by the boot's themes). */
function askedKeys(): Set<string> {
  const keys = new Set<string>();
  for (const file of sourceFiles(SOURCES)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\bt\('([a-z0-9_]+)'/g)) keys.add(match[1]!);
    if (text.includes('t(`theme_${')) for (const theme of ['light', 'dark', 'auto']) keys.add(`theme_${theme}`);
  }
  return keys;
}

describe('the admin application’s strings', () => {
  const asked = askedKeys();
  const tableKeys = (locale: string) => new Set(Object.keys(uiStrings[locale] ?? {}).map((key) => key.replace(/^ui\./, '')));

  it('finds the application’s sources', () => {
    expect(asked.size).toBeGreaterThan(30);
  });

  it.each(['en', 'de'])('has every key the application asks for in %s', (locale) => {
    const table = tableKeys(locale);
    expect([...asked].filter((key) => !table.has(key))).toEqual([]);
  });

  it('holds no key the application never asks for, and the same keys in every locale', () => {
    expect([...tableKeys('en')].filter((key) => !asked.has(key))).toEqual([]);
    expect([...tableKeys('de')].sort()).toEqual([...tableKeys('en')].sort());
  });
});

describe('the admin application’s sources', () => {
  it('never turn strings into HTML or code', () => {
    const forbidden =
      /\b(innerHTML|outerHTML|insertAdjacentHTML|unsafeHTML|unsafeSVG|document\.write|eval|srcdoc)\b|new Function\b|setTimeout\(\s*['"`]/;
    const found = sourceFiles(SOURCES).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => (forbidden.test(line) ? [`${file.slice(SOURCES.length)}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
