import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '@cms/admin-core';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { POSTS, PRODUCTS, pressPlugin } from '../fixtures/press.ts';
import { seedPosts } from '../fixtures/press-seed.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';

/**
 * Bad input on a plugin's controllers (the `test/press` fixture) is a 422, never a 500 (docs/security.md, "Input
 * limits"; docs/errors.md, "What makes a validation_failed"): dates PostgreSQL cannot hold, values
 * nested past the JSON depth limit, names that exist only on Object's prototype, lone surrogates.
 */
describe('input limits on the list and the save', () => {
  let t: TestAdmin;
  let su: Client;
  const errors: unknown[] = [];
  const logger: Logger = { info() {}, warn() {}, error: (_message, fields) => errors.push(fields) };

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [pressPlugin], logger });
    su = await signIn(t, { isSuperuser: true });
    await seedPosts(t, 3, { authorId: su.id });
  });
  afterAll(() => t.close());

  /** A JSON text `depth` arrays deep around `inner` (built as text: JSON.stringify recurses). */
  const nested = (depth: number, inner = '1') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
  const sendRaw = (method: 'post' | 'put', path: string, text: string) =>
    su[method](path).set('Content-Type', 'application/json').send(text);

  it('a date range filter on year 0 (or past year 9999) is a 422 naming the filter, not a database error', async () => {
    for (const value of ['0000-01-01,', ',0000-12-31', '0000-02-29,0000-03-01']) {
      expect422(await su.get(POSTS, { 'filter[published_at]': value }), ['filter[published_at]']);
      expect422(await su.get(PRODUCTS, { 'filter[release_date]': value }), ['filter[release_date]']);
    }
    // The extremes PostgreSQL does hold still filter: the last day's bound is the day after it.
    for (const path of [POSTS, PRODUCTS]) {
      const key = path === POSTS ? 'filter[published_at]' : 'filter[release_date]';
      const res = await su.get(path, { [key]: '0001-01-01,9999-12-31' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect((await su.get(POSTS, { 'filter[published_at]': '0001-01-01,9999-12-31' })).body.meta.total).toBe(3);
    expect(errors).toEqual([]);
  });

  it('a field value nested 170,000 levels deep is a 422 naming the body, and nothing is written', async () => {
    const tables = ['test_press_posts'];
    const before = await snapshot(t, tables);
    for (const text of [
      `{"title":"Deep","slug":"deep","tags":${nested(170_000)}}`,
      `{"title":"Deep","slug":"deep","content":${nested(170_000, '"x"')}}`,
      `{"title":"Deep","slug":"deep","categories":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`,
    ]) {
      expect422(await sendRaw('post', POSTS, text), ['body']);
    }
    expect(await snapshot(t, tables)).toEqual(before);
    expect(errors).toEqual([]);
  });

  it('the JSON depth limit is 32: a body 32 levels deep is read, 33 is refused', async () => {
    // `tags` at depth 2 (body, then the list); 30 more levels inside make 32: refused by the field, not the reader.
    const at32 = await sendRaw('post', POSTS, `{"title":"T32","slug":"t32","tags":[${nested(30)}]}`);
    expect(at32.status).toBe(422);
    expect(Object.keys(at32.body.error.details)).toEqual(['tags']);
    const at33 = await sendRaw('post', POSTS, `{"title":"T33","slug":"t33","tags":[${nested(31)}]}`);
    expect422(at33, ['body']);
    expect(at33.body.error.details.body[0]).toMatch(/32/);
    expect(errors).toEqual([]);
  });

  it('filter names of the prototype (`constructor`, `__proto__`, `toString`) are unknown filters, a 422', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect422(await su.get(`${POSTS}?${encodeURIComponent(`filter[${name}]`)}=1`), [`filter[${name}]`]);
    }
    // A group filter's value is one of its own options, not a name of Object's prototype.
    expect422(await su.get(POSTS, { 'filter[status]': 'constructor' }), ['filter[status]']);
    expect422(await su.get(POSTS, { 'filter[status]': 'draft,toString' }), ['filter[status]']);
    expect422(await su.get(POSTS, { sort: 'constructor' }), ['sort']);
    expect((await su.get(`${POSTS}/filters/constructor/options`)).status).toBe(404);
    expect((await su.get(`${POSTS}/filters/__proto__/options`)).status).toBe(404);
    expect((await su.get(`${POSTS}/fields/constructor/options`)).status).toBe(404);
    expect(errors).toEqual([]);
  });

  it('a lone surrogate in a saved string is a 422, never echoed while U+FFFD is stored', async () => {
    const tables = ['test_press_posts'];
    const before = await snapshot(t, tables);
    for (const text of [
      '{"title":"A \\ud800 B","slug":"lone-high"}',
      '{"title":"Low \\udc00","slug":"lone-low"}',
      '{"title":"Fine","slug":"fine-tags","tags":["ok","\\udfff"]}',
      '{"title":"Fine","slug":"fine-key","\\ud800":1}',
    ]) {
      const res = await sendRaw('post', POSTS, text);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
      expect(JSON.stringify(res.body)).not.toMatch(/\\ud[89a-f]/i);
    }
    expect(await snapshot(t, tables)).toEqual(before);
    // A well-formed pair (an emoji) is fine, and is answered as stored.
    const ok = await sendRaw('post', POSTS, '{"title":"Smile \\ud83d\\ude00","slug":"smile"}');
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.data.title).toBe('Smile 😀');
    const [row] = await t.sql<{ title: string }>('select title from test_press_posts where id = ?', [ok.body.data.id]);
    expect(row!.title).toBe('Smile 😀');
    // A query cannot carry one (percent-decoding reads invalid UTF-8 as U+FFFD): still a list, not a 500.
    expect((await su.get(`${POSTS}?search=%ED%A0%80`)).status).toBe(200);
    expect(errors).toEqual([]);
  });
});
