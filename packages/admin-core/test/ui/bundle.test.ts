import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { renderShell } from '@cms/admin-core/adapter';
import { resolveConfig } from '../../src/config/resolve.ts';
import { loadUiBundle, readUiBundle } from '../../src/ui/bundle.ts';
import { answerUiFile } from '../../src/ui/serve.ts';
import { TEST_SECRET } from '../../../../test/support/app.ts';
import { expectConfigError } from '../support/config-error.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/ui-bundle/', import.meta.url));
const SHELL = { prefix: '/b', apiBase: '/b/api/v1', locale: 'en', locales: ['en'], fallbackLocale: 'en', themes: ['light'] };

const folders: string[] = [];
/** A copy of the fixture build whose manifest is `manifest` (an object, or raw text). */
const buildWith = (manifest: unknown) => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-ui-'));
  folders.push(dir);
  cpSync(FIXTURE, dir, { recursive: true });
  writeFileSync(join(dir, '.vite/manifest.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  return dir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('reading the build', () => {
  it('keeps every file but .vite/ by its relative key, and the entry, CSS and preloads of the manifest', () => {
    const bundle = readUiBundle(FIXTURE);
    if (bundle.state !== 'served') throw new Error(bundle.state);
    expect([...bundle.files.keys()].sort()).toEqual([
      'assets/big-Mno678.js',
      'assets/lazy-Ghi012.js',
      'assets/main-AbC123.js',
      'assets/main-XyZ789.css',
      'assets/shared-Def456.js',
      'assets/shared-Jkl345.css',
      'favicon.svg',
    ]);
    expect(bundle).toMatchObject({
      entry: 'assets/main-AbC123.js',
      css: ['assets/shared-Jkl345.css', 'assets/main-XyZ789.css'],
      preload: ['assets/shared-Def456.js'],
    });
    expect(bundle.version).toMatch(/^[0-9a-f]{16}$/);
  });

  it('is "not built" without a manifest, and "off" with ui: false', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'cms-ui-'));
    folders.push(empty);
    expect(readUiBundle(empty)).toEqual({ state: 'not-built' });
    expect(readUiBundle(join(empty, 'absent'))).toEqual({ state: 'not-built' });
    expect(await loadUiBundle(false)).toEqual({ state: 'off' });
    expect(await loadUiBundle({ dir: empty })).toEqual({ state: 'not-built' });
  });

  it('is "not installed" when @cms/admin-ui cannot be imported; other import failures stop the start', async () => {
    const missing = Object.assign(new Error("Cannot find package '@cms/admin-ui'"), { code: 'ERR_MODULE_NOT_FOUND' });
    expect(await loadUiBundle(undefined, () => Promise.reject(missing))).toEqual({ state: 'not-installed' });
    await expect(loadUiBundle(undefined, () => Promise.reject(new SyntaxError('bad')))).rejects.toThrow('bad');
    expect(await loadUiBundle(undefined, async () => ({ dir: new URL('../fixtures/ui-bundle/', import.meta.url) }))).toMatchObject({
      state: 'served',
    });
    // The workspace's own package answers a folder: served once built, "not built" before.
    expect(['served', 'not-built']).toContain((await loadUiBundle(undefined)).state);
  });

  it.each([
    ['no entry', { 'src/main.ts': { file: 'assets/main-AbC123.js' } }],
    [
      'two entries',
      {
        'src/main.ts': { file: 'assets/main-AbC123.js', isEntry: true },
        'src/other.ts': { file: 'assets/lazy-Ghi012.js', isEntry: true },
      },
    ],
    ['a file the folder lacks', { 'src/main.ts': { file: 'assets/main-000000.js', isEntry: true } }],
    ['a missing import', { 'src/main.ts': { file: 'assets/main-AbC123.js', isEntry: true, imports: ['_gone.js'] } }],
    ['a chunk without file', { 'src/main.ts': { isEntry: true } }],
    ['text that is not JSON', '{"src/main.ts": '],
    ['a list', '[]'],
  ])('refuses a manifest with %s', (_, manifest) => {
    expectConfigError(() => readUiBundle(buildWith(manifest)), 'ui_bundle_invalid', { key: 'ui' });
  });

  it('refuses a symbolic link in the build folder', () => {
    const dir = buildWith({ 'src/main.ts': { file: 'assets/main-AbC123.js', isEntry: true } });
    symlinkSync('/etc/passwd', join(dir, 'assets', 'passwd'));
    expectConfigError(() => readUiBundle(dir), 'ui_bundle_invalid');
  });

  it('answers unknown extensions as opaque bytes and misses as 404', () => {
    const dir = buildWith({ 'src/main.ts': { file: 'assets/main-AbC123.js', isEntry: true } });
    writeFileSync(join(dir, 'assets', 'data.bin'), Buffer.from([0, 1, 2]));
    const bundle = readUiBundle(dir);
    expect(answerUiFile(bundle, 'assets/data.bin', undefined).headers['Content-Type']).toBe('application/octet-stream');
    expect(answerUiFile(bundle, '.vite/manifest.json', undefined).status).toBe(404);
    expect(answerUiFile(bundle, undefined, undefined).status).toBe(404);
    expect(answerUiFile({ state: 'off' }, 'assets/main-AbC123.js', undefined).status).toBe(404);
  });
});

describe('the ui setting', () => {
  const base = { secret: TEST_SECRET, database: { embedded: {} } };
  it('takes false, an absolute path or a file URL', () => {
    expect(resolveConfig({ ...base, ui: false }).ui).toBe(false);
    expect(resolveConfig(base).ui).toBeUndefined();
    expect(resolveConfig({ ...base, ui: { dir: FIXTURE } }).ui).toEqual({ dir: FIXTURE });
    expect(resolveConfig({ ...base, ui: { dir: new URL('../fixtures/ui-bundle/', import.meta.url) } }).ui).toEqual({ dir: FIXTURE });
  });

  it.each([[true], ['dist'], [{ dir: 'relative/dist' }], [{ dir: new URL('https://example.com/') }], [{ dir: FIXTURE, extra: 1 }]])(
    'refuses %j',
    (ui) => {
      expectConfigError(() => resolveConfig({ ...base, ui: ui as never }), 'config_value_invalid', { key: 'ui' });
    },
  );
});

describe('the shell without an application', () => {
  it('says how to install the package when it is not installed', () => {
    const { html } = renderShell({ ...SHELL, ui: { state: 'not-installed' } });
    expect(html).toContain(
      '<p>The admin application is not installed. Install <code>@cms/admin-ui</code> beside <code>@cms/admin-core</code> (docs/host-guide.md).</p>',
    );
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  it('keeps the boot data only with ui: false (a host serving its own client)', () => {
    const { html, headers } = renderShell({ ...SHELL, ui: { state: 'off' } });
    expect(html).toContain('<noscript>The admin needs JavaScript.</noscript>');
    expect(html).not.toMatch(/<link |<p>|type="module"/);
    expect(headers['Content-Security-Policy']).not.toContain('unsafe-inline');
  });
});
