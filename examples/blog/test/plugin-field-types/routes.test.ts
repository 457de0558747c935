import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { plugins } from '../../src/plugins/index.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { ITEMS, LAB_ASSETS, labPlugin } from '../../../../packages/admin-core/test/fixtures/field-types.ts';

const contentHash = async (file: URL) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

/**
 * `GET /field-types` and FormView `assets` (docs/field-types.md, "Client files") with
 * `?v=<content hash>` URLs (docs/assets.md, "Serving").
 */
describe('plugin field types in schemas', () => {
  let t: TestAdmin;
  let nobody: Client;
  let su: Client;
  const urls: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [...plugins, labPlugin()] });
    nobody = await signIn(t);
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  it('lists every plugin field type to any signed-in admin, with versioned asset URLs', async () => {
    const res = await nobody.get('field-types');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({});
    type Listed = { alias: string; scripts: string[]; styles: string[] };
    const byAlias: Record<string, Listed> = Object.fromEntries((res.body.data as Listed[]).map((type) => [type.alias, type]));
    // The backend plugin registers first: the core's yes/no types (docs/field-types.md, "switch and checkbox").
    expect(Object.keys(byAlias)).toEqual(['switch', 'checkbox', 'color', 'stamp', 'motto']);
    expect(byAlias.stamp).toEqual({
      alias: 'stamp',
      plugin: 'tfx.lab',
      element: 'tfx-stamp',
      translatable: false,
      options: ['maxLength'],
      scripts: [expect.stringMatching(/^\/backend\/assets\/tfx\/lab\/stamp\.js\?v=[0-9a-f]{8,64}$/)],
      styles: [expect.stringMatching(/^\/backend\/assets\/tfx\/lab\/lab\.css\?v=[0-9a-f]{8,64}$/)],
      upload: { maxBytes: 1024, accept: ['txt'] },
    });
    expect(byAlias.motto).toMatchObject({
      alias: 'motto',
      translatable: true,
      options: [],
      scripts: [expect.stringContaining('/motto.js?v='), byAlias.stamp!.scripts[0]],
    });
    expect(byAlias.motto).not.toHaveProperty('upload');
    expect(byAlias.color).toMatchObject({ plugin: 'acme.catalog', element: 'acme-color-picker', options: ['palette'] });
    urls.stamp = byAlias.stamp!.scripts[0]!;
    urls.motto = byAlias.motto!.scripts[0]!;
    urls.css = byAlias.stamp!.styles[0]!;
  });

  it('each ?v= is the content hash of the file, and the URL serves that file', async () => {
    for (const [key, file] of [
      ['stamp', 'stamp.js'],
      ['motto', 'motto.js'],
      ['css', 'lab.css'],
    ] as const) {
      const version = new URL(urls[key]!, 'http://x').searchParams.get('v')!;
      expect((await contentHash(LAB_ASSETS[file])).startsWith(version)).toBe(true);
      const served = await t.http.get(urls[key]!);
      expect(served.status).toBe(200);
      expect(Buffer.from(served.text ?? served.body).toString()).toBe(await readFile(LAB_ASSETS[file], 'utf8'));
    }
    expect(new URL(urls.stamp!, 'http://x').searchParams.get('v')).not.toBe(new URL(urls.motto!, 'http://x').searchParams.get('v'));
  });

  it('needs a signed-in admin', async () => {
    const res = await t.http.get(`${API}/field-types`);
    expect(res.status).toBe(401);
  });

  it('FormView assets: the scripts and styles of the types the form uses, in field order, each once', async () => {
    const res = await su.get(`${ITEMS}/schema/form`);
    expect(res.status).toBe(200);
    // stamp (stamp.js, lab.css), motto (motto.js, stamp.js, lab.css), code (stamp again).
    expect(res.body.data.assets).toEqual({ scripts: [urls.stamp, urls.motto], styles: [urls.css] });
    const fields = Object.fromEntries((res.body.data.fields as Array<{ name: string }>).map((f) => [f.name, f]));
    expect(fields.stamp).toEqual({
      name: 'stamp',
      type: 'stamp',
      label: 'Stamp',
      element: 'tfx-stamp',
      translatable: false,
      typeOptions: { maxLength: 12 },
    });
    expect(fields.motto).toEqual({
      name: 'motto',
      type: 'motto',
      label: 'Motto',
      element: 'tfx-motto',
      translatable: true,
      typeOptions: {},
    });
  });

  it('a form without plugin field types has empty asset lists', async () => {
    // The journal's categories: built-in field types only (the storefront has a rich editor now).
    const res = await su.get('cms/journal/categories/schema/form');
    expect(res.body.data.assets).toEqual({ scripts: [], styles: [] });
  });
});
