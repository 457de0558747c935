import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { calls, ITEMS, labPlugin } from '../fixtures/field-types.ts';

const TABLES = ['tfx_lab_items', 'tfx_lab_log'];
const updates = (t: TestAdmin) => t.queries.filter((sql) => /^update\b/i.test(sql.trim()) && sql.includes('tfx_lab_items'));

/** Saving values of plugin field types (docs/field-types.md, "Saving", `meta.notices` included) through `tfx/lab/items`. */
describe('saving plugin field types', () => {
  let t: TestAdmin;
  let su: Client;

  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node', plugins: [labPlugin()] });
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    calls.length = 0;
  });

  let counter = 0;
  const create = async (body: Record<string, unknown>) => {
    counter += 1;
    const res = await su.post(ITEMS, { name: `Item ${counter}`, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { data: Record<string, unknown> & { id: number }; meta: Record<string, unknown> };
  };

  describe('a plain type (stamp)', () => {
    it('decodes on create inside the save and serves the encoded value; no notice, no meta.notices', async () => {
      const body = await create({ stamp: 'abc' });
      expect(body.data).toEqual({ id: body.data.id, name: `Item ${counter}`, stamp: 'abc', code: null, motto: { en: null, de: null } });
      expect(body.meta).not.toHaveProperty('notices');
      expect(calls).toEqual([{ type: 'stamp', value: 'abc', locale: 'en', mode: 'create' }]);
      const [row] = await t.sql('select stamp from tfx_lab_items where id = ?', [body.data.id]);
      expect(row).toEqual({ stamp: 'abc' });
    });

    it('serves meta.notices when the type reported something: field, localized message, locale', async () => {
      const body = await create({ stamp: '  ABC ' });
      expect(body.data.stamp).toBe('abc');
      expect(body.meta.notices).toEqual([{ field: 'stamp', message: 'The stamp was saved as "abc".', locale: 'en' }]);
      const german = await su.locale('de').post(ITEMS, { name: 'Deutsch', stamp: 'XY' });
      expect(german.body.meta.notices).toEqual([{ field: 'stamp', message: 'Der Stempel wurde als „xy“ gespeichert.', locale: 'de' }]);
    });

    it("a FieldError of the type is a 422 on that field with the type's code; nothing is written", async () => {
      const before = await snapshot(t, TABLES);
      const res = await su.post(ITEMS, { name: 'Bad', stamp: 42 });
      expect422(res, ['stamp'], 'stamp.invalid');
      expect(res.body.error.details.stamp).toEqual(['A stamp is a text.']);
      const german = await su.locale('de').post(ITEMS, { name: 'Bad', stamp: 42 });
      expect(german.body.error.details.stamp).toEqual(['Ein Stempel ist ein Text.']);
      expect(await snapshot(t, TABLES)).toEqual(before);
    });

    it("the field's typeOptions reach decode", async () => {
      const res = await su.post(ITEMS, { name: 'Long', stamp: 'abcdefghijklm' });
      expect422(res, ['stamp'], 'stamp.too_long');
      expect(res.body.error.details.stamp).toEqual(['A stamp has at most 12 characters.']);
    });

    it('a FieldError with status 403 from a plugin type is still a 422', async () => {
      expect422(await su.post(ITEMS, { name: 'Locked', stamp: 'forbid' }), ['stamp'], 'stamp.locked');
    });

    it('field errors of a plugin type and of a built-in type are answered together as validation_failed', async () => {
      expect422(await su.post(ITEMS, { name: '', stamp: 42 }), ['name', 'stamp']);
    });

    it('any other error is an opaque 500, and what decode wrote in the transaction is rolled back', async () => {
      const before = await snapshot(t, TABLES);
      const res = await su.post(ITEMS, { name: 'Boom', stamp: 'boom' });
      expect(res.status).toBe(500);
      expect(res.body.error).toEqual({ code: 'internal_error', message: expect.any(String), details: {} });
      expect(JSON.stringify(res.body)).not.toMatch(/stamp machine|stamp/);
      expect(calls.map((c) => c.value)).toEqual(['boom']);
      expect(await snapshot(t, TABLES)).toEqual(before);
      // The control: the same write from a decode that succeeds is committed with the save.
      expect((await su.post(ITEMS, { name: 'Logged', stamp: 'log-me' })).status).toBe(201);
      expect(await t.sql('select note from tfx_lab_log')).toEqual([{ note: 'decode' }]);
    });

    it('an AdminError thrown by a type does not choose the status: opaque 500', async () => {
      const res = await su.post(ITEMS, { name: 'Lost', stamp: 'not-found' });
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe('internal_error');
    });

    it('a decode that answers undefined is a plugin bug: opaque 500, nothing written', async () => {
      const before = await snapshot(t, TABLES);
      expect((await su.post(ITEMS, { name: 'Nothing', stamp: 'undefined' })).status).toBe(500);
      expect(await snapshot(t, TABLES)).toEqual(before);
    });

    it('an update that fails in decode writes nothing, other fields included', async () => {
      const { data } = await create({ stamp: 'keep' });
      const before = await snapshot(t, TABLES);
      expect((await su.put(`${ITEMS}/${data.id}`, { name: 'Renamed', stamp: 'boom' })).status).toBe(500);
      expect(await snapshot(t, TABLES)).toEqual(before);
    });

    it('null clears the value without calling decode; an absent key is not decoded on create', async () => {
      const { data } = await create({ stamp: 'gone' });
      calls.length = 0;
      const res = await su.put(`${ITEMS}/${data.id}`, { stamp: null });
      expect(res.status).toBe(200);
      expect(res.body.data.stamp).toBeNull();
      const empty = await create({});
      expect(empty.data.stamp).toBeNull();
      expect(calls).toEqual([]);
    });

    it('on update a value equal to the served one is neither decoded nor written (no UPDATE statement)', async () => {
      const { data } = await create({ stamp: 'same' });
      calls.length = 0;
      t.queries.length = 0;
      const res = await su.put(`${ITEMS}/${data.id}`, { stamp: 'same' });
      expect(res.status).toBe(200);
      expect(res.body.meta).not.toHaveProperty('notices');
      expect(calls).toEqual([]);
      expect(updates(t)).toEqual([]);
      // A changed value is decoded once and written.
      const changed = await su.put(`${ITEMS}/${data.id}`, { stamp: 'other' });
      expect(changed.body.data.stamp).toBe('other');
      expect(calls).toHaveLength(1);
      expect(updates(t)).toHaveLength(1);
    });

    it('a stored value that decode would now refuse is still left alone when sent back unchanged', async () => {
      const { data } = await create({ stamp: 'fine' });
      // Written behind the type's back: decode would refuse it as too long (maxLength 12).
      await t.sql('update tfx_lab_items set stamp = ? where id = ?', ['abcdefghijklmnop', data.id]);
      calls.length = 0;
      const res = await su.put(`${ITEMS}/${data.id}`, { name: 'Still fine', stamp: 'abcdefghijklmnop' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(calls).toEqual([]);
      expect(res.body.data).toMatchObject({ name: 'Still fine', stamp: 'abcdefghijklmnop' });
    });

    it('a read-only plugin field is refused in a save body like any read-only field', async () => {
      expect422(await su.post(ITEMS, { name: 'Code', code: 'x' }), ['code']);
    });
  });

  describe('a translatable type (motto)', () => {
    it('decodes each sent locale with that locale, and stores an object with every served locale', async () => {
      const body = await create({ motto: { en: 'Hello', de: 'Hallo' } });
      expect(body.data.motto).toEqual({ en: 'Hello', de: 'Hallo' });
      expect(calls.map((c) => [c.locale, c.value])).toEqual([
        ['en', 'Hello'],
        ['de', 'Hallo'],
      ]);
      const only = await create({ motto: { de: 'Nur Deutsch' } });
      expect(only.data.motto).toEqual({ en: null, de: 'Nur Deutsch' });
      const [row] = await t.sql<{ motto: unknown }>('select motto from tfx_lab_items where id = ?', [only.data.id]);
      expect(row!.motto).toEqual({ en: null, de: 'Nur Deutsch' });
    });

    it('notices carry the locale of the value they are about', async () => {
      const body = await create({ motto: { en: 'Fine', de: ' Leerzeichen ' } });
      expect(body.data.motto).toEqual({ en: 'Fine', de: 'Leerzeichen' });
      expect(body.meta.notices).toEqual([{ field: 'motto', message: 'Spaces around the motto were removed.', locale: 'de' }]);
    });

    it('refuses a locale that is not served, and a value that is not an object (422, nothing decoded)', async () => {
      expect422(await su.post(ITEMS, { name: 'Fr', motto: { fr: 'Bonjour' } }), ['motto']);
      expect422(await su.post(ITEMS, { name: 'Str', motto: 'Hello' }), ['motto']);
      expect422(await su.post(ITEMS, { name: 'Arr', motto: ['Hello'] }), ['motto']);
      expect(calls).toEqual([]);
      const res = await su.post(ITEMS, { name: 'Fr', motto: { fr: 'Bonjour' } });
      expect(res.body.error.details.motto).toEqual(['The language fr is not offered.']);
    });

    it('a FieldError of one locale is a 422 on the field that names the locale', async () => {
      const res = await su.post(ITEMS, { name: 'Num', motto: { en: 'ok', de: 7 } });
      expect422(res, ['motto'], 'motto.invalid');
      expect(res.body.error.details.motto).toEqual(['A motto is a text. (de)']);
    });

    it('on update only the changed locales are decoded; unsent locales keep their value; null clears one', async () => {
      const { data } = await create({ motto: { en: 'One', de: 'Eins' } });
      calls.length = 0;
      const res = await su.put(`${ITEMS}/${data.id}`, { motto: { en: 'One', de: 'Zwei' } });
      expect(res.body.data.motto).toEqual({ en: 'One', de: 'Zwei' });
      expect(calls.map((c) => [c.locale, c.value, c.mode])).toEqual([['de', 'Zwei', 'update']]);
      calls.length = 0;
      const partial = await su.put(`${ITEMS}/${data.id}`, { motto: { en: 'Three' } });
      expect(partial.body.data.motto).toEqual({ en: 'Three', de: 'Zwei' });
      const cleared = await su.put(`${ITEMS}/${data.id}`, { motto: { de: null } });
      expect(cleared.body.data.motto).toEqual({ en: 'Three', de: null });
      expect(calls.map((c) => c.locale)).toEqual(['en']);
    });

    it('the served value sent back unchanged is neither decoded nor written', async () => {
      const { data } = await create({ motto: { en: 'Same', de: 'Gleich' } });
      const served = (await su.get(`${ITEMS}/${data.id}`)).body.data;
      calls.length = 0;
      t.queries.length = 0;
      const res = await su.put(`${ITEMS}/${data.id}`, served);
      expect(res.status, JSON.stringify(res.body)).toBe(422); // `id` is not a field
      const { id: _id, code: _code, ...editable } = served;
      const again = await su.put(`${ITEMS}/${data.id}`, editable);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(calls).toEqual([]);
      expect(updates(t)).toEqual([]);
      expect(again.body.data).toEqual(served);
    });

    it('an empty motto (every locale null) is served back unchanged without a write', async () => {
      const { data } = await create({ name: 'No motto' });
      expect(data.motto).toEqual({ en: null, de: null });
      t.queries.length = 0;
      expect((await su.put(`${ITEMS}/${data.id}`, { motto: { en: null, de: null } })).status).toBe(200);
      expect(updates(t)).toEqual([]);
    });
  });
});
