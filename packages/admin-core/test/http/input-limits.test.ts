import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '@cms/admin-core';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, type Client } from '../../../../test/support/client.ts';
import { actionsPlugin, ITEMS } from '../fixtures/actions.ts';
import { enginePlugin, NOTES } from '../fixtures/engine.ts';
import { CARDS, partialsPlugin } from '../fixtures/partials.ts';
import { prefsPlugin } from '../fixtures/settings.ts';

/**
 * Input limits of every route (docs/security.md, "Input limits"; docs/errors.md, "What makes a
 * validation_failed"): JSON bodies nest at most 32 levels, lone surrogates are refused, and names
 * read from a request are own keys of what is declared (`constructor` is no filter, action,
 * partial, field or settings code). Each answers a 4xx, never a 500, on both adapters.
 */
describe.each(['koa', 'node'] as const)('input limits (%s adapter)', (adapter) => {
  let t: TestAdmin;
  let su: Client;
  let token: string;
  const errors: unknown[] = [];
  const logger: Logger = { info() {}, warn() {}, error: (_message, fields) => errors.push(fields) };
  const metadataOf = async (id: number) =>
    (await t.sql<{ metadata: Record<string, unknown> }>('select metadata from cms_admins where id = ?', [id]))[0]!.metadata;
  /** A JSON text `depth` arrays deep around `inner` (built as text: JSON.stringify would recurse). */
  const nested = (depth: number, inner = '"dark"') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
  const putPreferences = (text: string) =>
    t.http.put(`${API}/account/preferences`).set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send(text);
  let adminId: number;

  beforeAll(async () => {
    t = await startTestAdmin({ adapter, logger, plugins: [enginePlugin, actionsPlugin, partialsPlugin, prefsPlugin] });
    su = await signIn(t, { isSuperuser: true });
    const admin = await t.createAdmin();
    adminId = admin.id;
    token = await t.login(admin.login, admin.password);
  });
  afterAll(() => t.close());

  it('a preference nested 170,000 (or 3,000) levels deep is a 422 naming the body, and nothing is written', async () => {
    for (const depth of [170_000, 3_000, 33]) {
      const res = await putPreferences(`{"admin_theme":${nested(depth)}}`);
      expect422(res, ['body']);
      expect(res.body.error.details.body).toEqual(['The request body nests objects and lists more than 32 levels deep.']);
    }
    // In an object too, and at the top: the body's own nesting counts from the body object (level 1).
    expect422(await putPreferences(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`), ['body']);
    expect(await metadataOf(adminId)).not.toHaveProperty('admin_theme');
    expect(errors).toEqual([]);
  });

  it('the depth limit is 32 levels, the body object included; brackets inside strings do not count', async () => {
    // Body (1) + 31 arrays = 32: read, then refused by the validator as no string.
    expect422(await putPreferences(`{"admin_theme":${nested(31)}}`), ['admin_theme']);
    expect422(await putPreferences(`{"admin_theme":${nested(32)}}`), ['body']);
    const brackets = await putPreferences(JSON.stringify({ admin_theme: '['.repeat(100) }));
    expect422(brackets, ['admin_theme']);
    expect(brackets.body.error.details.admin_theme[0]).not.toMatch(/levels/);
    expect(errors).toEqual([]);
  });

  it('a lone surrogate in a body value or key is a 422 naming it; the key is named with U+FFFD, never echoed', async () => {
    for (const text of ['{"admin_theme":"\\ud800"}', '{"admin_theme":"dark\\udfff"}', '{"admin_locale":"\\udc00\\ud800"}']) {
      const res = await putPreferences(text);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(Object.values(res.body.error.details).flat()).toEqual([
        'This value is not valid Unicode text: it holds an unpaired surrogate code unit.',
      ]);
    }
    const key = await putPreferences('{"\\ud800x":1}');
    expect422(key, ['\uFFFDx']);
    expect(JSON.stringify(key.body)).not.toMatch(/\\ud[89a-f]/i);
    // In a nested save value (a note's mltext heading), and in German.
    const note = await su.post(NOTES, { title: 'ok', heading: { en: 'fine', de: 'x\ud800' } });
    expect422(note, ['heading']);
    const de = await su.locale('de').post(NOTES, { title: '\udc00' });
    expect(de.body.error.details.title).toEqual(['Dieser Wert ist kein gültiger Unicode-Text: er enthält ein einzelnes Surrogat-Zeichen.']);
    // A pair is one character, not two halves.
    const pair = await su.post(NOTES, { title: 'Smile \ud83d\ude00' });
    expect(pair.status, JSON.stringify(pair.body)).toBe(201);
    expect(pair.body.data.title).toBe('Smile 😀');
    expect(await metadataOf(adminId)).not.toHaveProperty('admin_theme');
    expect(errors).toEqual([]);
  });

  it('names from Object.prototype are no declared filter, sort column, action, partial, field or settings code', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const key = `filter[${name}]`;
      expect422(await su.get(`${NOTES}?${encodeURIComponent(key)}=1`), [key]);
      expect422(await su.get(NOTES, { sort: name }), ['sort']);
      expect422(await su.get(NOTES, { 'filter[status]': name }), ['filter[status]']);
      const paths = [
        ['get', `${NOTES}/filters/${name}/options`],
        ['get', `${NOTES}/fields/${name}/options`],
        ['get', `${CARDS}/partials/${name}`],
        ['get', `settings/${name}`],
        ['get', `settings/${name}/schema`],
        ['post', `${ITEMS}/1/actions/${name}`],
        ['post', `${ITEMS}/bulk/${name}`],
        ['post', `${ITEMS}/toolbar/${name}`],
        ['post', `${ITEMS}/widgets/${name}`],
      ] as const;
      for (const [method, path] of paths) {
        const request = method === 'get' ? su.get(path) : su.post(path, {}).set('X-Requested-With', 'XMLHttpRequest');
        const res = await request;
        expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(404);
      }
    }
    expect(errors).toEqual([]);
  });
});
