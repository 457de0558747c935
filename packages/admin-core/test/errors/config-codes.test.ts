import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_ERROR_CODES, ConfigError } from '../../src/index.ts';
import { expectConfigError } from '../support/config-error.ts';

/** The rows of docs/errors.md's "Start-up errors" table: code, meaning, typical fix. */
function documentedRows(): string[][] {
  const markdown = readFileSync(new URL('../../../../docs/errors.md', import.meta.url), 'utf8');
  const section = markdown.split(/^## Start-up errors$/m)[1]?.split(/^#{2,3} /m)[0];
  if (!section) throw new Error('docs/errors.md has no "## Start-up errors" section');
  const rows = section.split('\n').filter((line) => line.startsWith('|'));
  // Skip the header and the `| --- |` line.
  return rows.slice(2).map((row) => {
    const cells = row.split(/ \| /).map((cell) => cell.replace(/^\| ?| ?\|$/g, '').trim());
    const code = /^`([a-z_]+)`$/.exec(cells[0] ?? '')?.[1];
    if (!code || cells.length !== 3) throw new Error(`docs/errors.md: unreadable row of the start-up errors table: ${row}`);
    return [code, cells[1]!, cells[2]!];
  });
}

describe('the start-up error codes table', () => {
  const documented = documentedRows();
  const table = Object.entries(CONFIG_ERROR_CODES).map(([code, [meaning, fix]]) => [code, meaning, fix]);

  it('lists the same codes as docs/errors.md, in the same order, with the same meaning and fix', () => {
    // On a difference, the expected rows are the table's: copy its wording into the docs.
    expect(documented).toEqual(table);
  });

  it('lists each code once, snake_case', () => {
    const codes = documented.map(([code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of Object.keys(CONFIG_ERROR_CODES)) expect(code).toMatch(/^[a-z]+(_[a-z]+)+$/);
  });

  it('gives a ConfigError its code, a message naming place and fix, and the terminal line with both', () => {
    const error = ConfigError.at(
      'config_secret_short',
      { plugin: 'acme.shop', controller: 'acme/shop/orders', key: 'secret' },
      'too short',
      'Make it longer.',
    );
    expect(error.code).toBe('config_secret_short');
    expect(error.name).toBe('ConfigError');
    expect(error.message).toBe('plugin "acme.shop", controller "acme/shop/orders", key "secret": too short. Make it longer.');
    expect(String(error)).toBe(`ConfigError [config_secret_short]: ${error.message}`);
    expect(error.stack?.split('\n')[0]).toBe(String(error));
    expectConfigError(() => {
      throw error;
    }, 'config_secret_short');
  });

  it('has no code that nothing throws', () => {
    const sources = [
      ...readdirSync(new URL('../../src/', import.meta.url), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts') && !file.endsWith('error-codes.ts'))
        .map((file) => readFileSync(new URL(`../../src/${file}`, import.meta.url), 'utf8')),
      // The one code for a plugin's own options, used by the workspace's journal plugin.
      readFileSync(new URL('../../../journal/src/options.ts', import.meta.url), 'utf8'),
    ].join('\n');
    expect(Object.keys(CONFIG_ERROR_CODES).filter((code) => !sources.includes(`'${code}'`))).toEqual([]);
  });

  it('refuses a code outside the table', () => {
    expect(() => new ConfigError('no_such_code' as never, 'message')).toThrow(TypeError);
  });
});
