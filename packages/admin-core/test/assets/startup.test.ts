import { createHash } from 'node:crypto';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSET_MAX_BYTES, ASSETS_TOTAL_MAX_BYTES, type ConfigErrorCode, definePlugin, type PluginAssetsDefinition } from '@cms/admin-core';
import { PluginAssets } from '../../src/assets/index.ts';
import { registerPlugins } from '../../src/core.ts';
import { createAdmin } from '@cms/admin-koa';
import { TEST_SECRET } from '../../../../test/support/app.ts';
import { silentLogger } from '../../../../test/support/logger.ts';
import { assertConfigError, expectConfigError } from '../support/config-error.ts';
import { assetFixture, type AssetFixture } from './support.ts';

const CODE = 'acme.assettest';
const pluginWith = (assets: unknown) => definePlugin({ vendor: 'acme', name: 'assettest', assets: assets as PluginAssetsDefinition });
const register = (assets: unknown) => {
  const registry = new PluginAssets('/backend');
  registry.add(pluginWith(assets), CODE);
  return registry;
};

/** Asserts the declaration is refused with a ConfigError of `code` naming the plugin and `key`. */
function refuse(assets: unknown, code: ConfigErrorCode, key: string): void {
  expectConfigError(() => register(assets), code, { plugin: CODE, key });
}

describe('plugin assets: start-up checks', () => {
  let f: AssetFixture;
  let js: URL;
  beforeAll(async () => {
    f = await assetFixture();
    js = pathToFileURL(join(f.dir, 'registered.js'));
  });
  afterAll(() => f.remove());

  it('registers each declared file by exact key, with a content hash URL', () => {
    const assets = new PluginAssets('/backend');
    assets.add(f.plugin, CODE);
    for (const [key, body] of Object.entries(f.files)) {
      const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
      expect(assets.has('acme', 'assettest', key)).toBe(true);
      expect(assets.url('acme', 'assettest', key)).toBe(`/backend/assets/acme/assettest/${key}?v=${hash}`);
      const served = assets.find('acme', 'assettest', key)!;
      expect(served.body.equals(body)).toBe(true);
      expect(served.etag).toBe(`"${hash}"`);
    }
    expect(assets.find('acme', 'assettest', 'registered.js')!.contentType).toBe('text/javascript; charset=utf-8');
    expect(assets.find('acme', 'assettest', 'sub/inner.css')!.contentType).toBe('text/css; charset=utf-8');
    expect(assets.find('acme', 'assettest', 'icon.svg')!.csp).toContain("default-src 'none'");
    expect(assets.has('acme', 'assettest', 'secret.js')).toBe(false);
    expect(assets.has('acme', 'other', 'registered.js')).toBe(false);
    expect(() => assets.url('acme', 'assettest', 'secret.js')).toThrow(/No plugin asset/);
  });

  it('accepts an absolute path, folders in the key, and a folder link on the way', async () => {
    await symlink(f.dir, join(f.dir, '..', 'linked-client'));
    const assets = register({
      'a/b/c.js': join(f.dir, 'registered.js'),
      'x_y-z.1.mjs': pathToFileURL(join(f.dir, '..', 'linked-client', 'registered.js')),
    });
    expect(assets.has('acme', 'assettest', 'a/b/c.js')).toBe(true);
    expect(assets.has('acme', 'assettest', 'x_y-z.1.mjs')).toBe(true);
  });

  it('keeps what it read at start-up when the file changes later', async () => {
    const path = join(f.dir, 'later.js');
    await writeFile(path, 'one');
    const assets = register({ 'later.js': pathToFileURL(path) });
    await writeFile(path, 'two');
    expect(assets.find('acme', 'assettest', 'later.js')!.body.toString()).toBe('one');
  });

  it.each([[[]], ['color.js'], [null], [new Map()], [42]])('refuses `assets` that is not an object of keys (%s)', (assets) => {
    refuse(assets, 'asset_value_invalid', 'assets');
  });

  it.each([
    '../registered.js',
    'a/../b.js',
    './a.js',
    '.hidden.js',
    'a/.b.js',
    'a\\b.js',
    'a%2eb.js',
    '%2e%2e/a.js',
    'Upper.js',
    'a.JS',
    '/abs.js',
    'a//b.js',
    'a/',
    '',
    'a..b.js',
    'a b.js',
    'a?.js',
    'a#.js',
    'a:b.js',
    '-a.js',
    'a/b/c/d/e.js',
    `${'a'.repeat(198)}.js`,
    'é.js',
    'a\u0000.js',
  ])('refuses the key %j as not a plain file name', (key) => {
    refuse({ [key]: js }, 'asset_key_invalid', `assets.${key}`);
  });

  it.each(['page.html', 'a.htm', 'run.exe', 'a.txt', 'a.xml', 'a.jpg', 'a.gif', 'noext', 'a.js.', 'a.woff', 'a.wasm'])(
    'refuses the extension of %j',
    (key) => {
      refuse({ [key]: js }, 'asset_type_unsupported', `assets.${key}`);
    },
  );

  it.each([
    ['a relative path', 'client/registered.js'],
    ['an http URL', new URL('https://example.com/a.js')],
    ['a number', 42],
  ])('refuses %s as the location', (_, location) => {
    refuse({ 'a.js': location }, 'asset_location_invalid', 'assets.a.js');
  });

  it('refuses a missing file, a folder and a symbolic link', () => {
    refuse({ 'a.js': pathToFileURL(join(f.dir, 'missing.js')) }, 'asset_unreadable', 'assets.a.js');
    refuse({ 'a.js': pathToFileURL(join(f.dir, 'sub')) }, 'asset_not_file', 'assets.a.js');
    refuse({ 'a.js': pathToFileURL(join(f.dir, 'link.js')) }, 'asset_not_file', 'assets.a.js');
  });

  it('accepts a file of exactly the size limit and refuses one byte more', async () => {
    const at = join(f.dir, 'at.js');
    const over = join(f.dir, 'over.js');
    await writeFile(at, Buffer.alloc(ASSET_MAX_BYTES, 0x20));
    await writeFile(over, Buffer.alloc(ASSET_MAX_BYTES + 1, 0x20));
    expect(register({ 'at.js': pathToFileURL(at) }).find('acme', 'assettest', 'at.js')!.body.length).toBe(ASSET_MAX_BYTES);
    refuse({ 'over.js': pathToFileURL(over) }, 'asset_too_large', 'assets.over.js');
  });

  it("bounds the sum of every plugin's files", async () => {
    const big = join(f.dir, 'big.js');
    await writeFile(big, Buffer.alloc(ASSET_MAX_BYTES, 0x20));
    const count = ASSETS_TOTAL_MAX_BYTES / ASSET_MAX_BYTES;
    const keys = Array.from({ length: count + 1 }, (_, i) => `big${i}.js`);
    expect(
      register(Object.fromEntries(keys.slice(0, count).map((k) => [k, pathToFileURL(big)]))).has('acme', 'assettest', `big${count - 1}.js`),
    ).toBe(true);
    refuse(Object.fromEntries(keys.map((k) => [k, pathToFileURL(big)])), 'asset_too_large', `assets.big${count}.js`);
  });

  it.each([
    ['pixel.png', Buffer.from('\xff\xd8\xff\xe0 a jpeg', 'latin1')],
    ['pic.webp', Buffer.from('RIFF\0\0\0\0WAVE', 'latin1')],
    ['font.woff2', Buffer.from('wOFF', 'latin1')],
    ['data.json', Buffer.from('{"a":')],
    ['app.js.map', Buffer.from('not json')],
    ['app.js', Buffer.from([0x61, 0xff, 0xfe])],
  ])('refuses %s whose content is not what the extension says', async (key, body) => {
    const path = join(f.dir, `content-${key}`);
    await writeFile(path, body);
    refuse({ [key]: pathToFileURL(path) }, 'asset_type_mismatch', `assets.${key}`);
  });

  it('accepts each allowed kind with matching content', async () => {
    await mkdir(join(f.dir, 'kinds'), { recursive: true });
    const kinds: Record<string, Buffer> = {
      'a.mjs': Buffer.from('export {};'),
      'a.js.map': Buffer.from('{"version":3}'),
      'a.webp': Buffer.from('RIFF\x04\0\0\0WEBPVP8 ', 'latin1'),
      'a.woff2': Buffer.from('wOF2\0\0', 'latin1'),
    };
    const declared: Record<string, URL> = {};
    for (const [key, body] of Object.entries(kinds)) {
      await writeFile(join(f.dir, 'kinds', key), body);
      declared[key] = pathToFileURL(join(f.dir, 'kinds', key));
    }
    const assets = register(declared);
    expect(assets.find('acme', 'assettest', 'a.woff2')!.contentType).toBe('font/woff2');
    expect(assets.find('acme', 'assettest', 'a.webp')!.contentType).toBe('image/webp');
    expect(assets.find('acme', 'assettest', 'a.js.map')!.contentType).toBe('application/json; charset=utf-8');
  });

  it('refuses through createAdmin before touching the database', async () => {
    // Nothing listens on port 1: a check that reached the database would fail differently.
    const error = await createAdmin({
      secret: TEST_SECRET,
      database: { url: 'postgres://postgres@127.0.0.1:1/none' },
      logger: silentLogger,
      plugins: [pluginWith({ 'page.html': js })],
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assertConfigError(error, 'asset_type_unsupported', { plugin: CODE, key: 'assets.page.html' });
  });

  it('refuses through the registry at start-up, naming plugin and key', () => {
    const plugin = pluginWith({ '../x.js': js });
    expectConfigError(() => registerPlugins([plugin], { prefix: '/backend' }), 'asset_key_invalid', {
      plugin: CODE,
      key: 'assets.../x.js',
    });
  });
});
