import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { definePlugin, type PluginDefinition } from '@cms/admin-core';

/** Bytes that never occur in the shell, so an answer carrying them is a leaked file. */
export const SECRET = 'SECRET-NOT-REGISTERED-7f3a';

export interface AssetFixture {
  dir: string;
  /** `acme/assettest` with `registered.js`, `sub/inner.css`, `pixel.png`, `icon.svg` and `data.json`. */
  plugin: PluginDefinition;
  files: Record<string, Buffer>;
  remove(): Promise<void>;
}

/** A 1x1 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/**
 * A plugin with real client files in a fresh temporary folder, next to files it does not
 * declare: `secret.js` in the same folder, `link.js` (a symbolic link to it) and `../outside.js`.
 */
export async function assetFixture(script = 'export const version = 1;\n'): Promise<AssetFixture> {
  const root = await mkdtemp(join(tmpdir(), 'cms-assets-'));
  const dir = join(root, 'client');
  await mkdir(join(dir, 'sub'), { recursive: true });
  const files: Record<string, Buffer> = {
    'registered.js': Buffer.from(script),
    'sub/inner.css': Buffer.from('.acme { color: red; }\n'),
    'pixel.png': PNG,
    'icon.svg': Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>\n'),
    'data.json': Buffer.from('{"ok":true}\n'),
  };
  for (const [key, body] of Object.entries(files)) await writeFile(join(dir, key), body);
  await writeFile(join(dir, 'secret.js'), `// ${SECRET}\n`);
  await writeFile(join(dir, 'sub', 'secret.css'), `/* ${SECRET} */\n`);
  await writeFile(join(root, 'outside.js'), `// ${SECRET}\n`);
  await symlink(join(dir, 'secret.js'), join(dir, 'link.js'));
  const plugin = definePlugin({
    vendor: 'acme',
    name: 'assettest',
    assets: Object.fromEntries(Object.keys(files).map((key) => [key, pathToFileURL(join(dir, key))])),
  });
  return { dir, plugin, files, remove: () => rm(root, { recursive: true, force: true }) };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * A GET with the path sent byte for byte: supertest (through `new URL`) would resolve `..` and
 * re-encode the path before it leaves, and an attacker's client does not.
 */
export function rawGet(server: Server, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the server is not listening');
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: address.port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
