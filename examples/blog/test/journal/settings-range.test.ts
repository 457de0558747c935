import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, type Client } from '../../../../test/support/client.ts';
import { startBlogAdmin } from '../support/blog.ts';

/*
 * Issue 9, point 18: `rss_limit` took -5 or 101. Number fields enforce their `min`, `max` and
 * `step` on save (docs/field-types.md, "number"); the journal's feed length is 1..100, whole.
 */
describe('journal settings: rss_limit stays within 1..100', () => {
  let t: TestAdmin;
  let manager: Client;

  beforeAll(async () => {
    t = await startBlogAdmin();
    manager = await signIn(t, { permissions: { 'cms.journal.access_settings': 1 } });
  });
  afterAll(() => t.close());

  const stored = async () => (await t.core.settings.values('journal')).rss_limit;

  it('refuses values below 1, above 100 or between steps with a localized 422; nothing is stored', async () => {
    expect((await manager.put('settings/journal', { rss_limit: 30 })).status).toBe(200);
    const cases: Array<[unknown, string, string]> = [
      [-5, 'This value must be at least 1.', 'Dieser Wert muss mindestens 1 sein.'],
      [0, 'This value must be at least 1.', 'Dieser Wert muss mindestens 1 sein.'],
      [101, 'This value may be at most 100.', 'Dieser Wert darf höchstens 100 sein.'],
      ['1e3', 'This value may be at most 100.', 'Dieser Wert darf höchstens 100 sein.'],
      [2.5, 'This value must be a multiple of 1.', 'Dieser Wert muss ein Vielfaches von 1 sein.'],
    ];
    for (const [value, en, de] of cases) {
      const res = await manager.put('settings/journal', { rss_limit: value });
      expect422(res, ['rss_limit']);
      expect(res.body.error.details.rss_limit).toEqual([en]);
      expect((await manager.locale('de').put('settings/journal', { rss_limit: value })).body.error.details.rss_limit).toEqual([de]);
    }
    expect(await stored()).toBe(30);
  });

  it('accepts the bounds', async () => {
    for (const value of [1, 100, '42']) {
      const res = await manager.put('settings/journal', { rss_limit: value });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.rss_limit).toBe(Number(value));
    }
  });

  it('serves min, max and step in the settings form', async () => {
    const fields = (await manager.get('settings/journal/schema')).body.data.fields as Array<Record<string, unknown>>;
    expect(fields.find((f) => f.name === 'rss_limit')).toMatchObject({ type: 'number', min: 1, max: 100, step: 1, default: 20 });
  });
});
