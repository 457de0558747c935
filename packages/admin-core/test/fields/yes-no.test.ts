import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpError } from '../controllers/startup-error.ts';
import { assertConfigError } from '../support/config-error.ts';
import { isPluginFieldType } from '../../src/fields/config.ts';
import { CORE_FIELD_TYPES } from '../../src/fields/yes-no.ts';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { EVENTS, eventFields, eventsController, ROUNDS_TABLES, roundsPlugin } from '../controllers/rounds.ts';
import { decodeContext, property } from './support.ts';

/*
 * The core's yes/no field types `switch` and `checkbox` (docs/field-types.md, "switch and
 * checkbox"): registered by the backend plugin through the plugin field type mechanism, strict
 * booleans on save, stored and served as booleans.
 */

describe('switch and checkbox: decode', () => {
  const type = CORE_FIELD_TYPES.get('switch')!;
  const decode = (value: unknown, nullable = false, field: Record<string, unknown> = {}) =>
    Promise.resolve()
      .then(() => type.decode(value, { type: 'switch', ...field }, decodeContext({ property: property('boolean', { nullable }) })))
      .then(
        (result) => ({ value: result }),
        (error: { messageKey: string }) => ({ refused: error.messageKey }),
      );

  it('takes the JSON booleans only', async () => {
    expect(await decode(true)).toEqual({ value: true });
    expect(await decode(false)).toEqual({ value: false });
    for (const value of [1, 0, 'true', 'false', 'yes', 'on', '', [], {}, [true]])
      expect(await decode(value), JSON.stringify(value)).toEqual({ refused: 'backend::fields.yes_no.boolean' });
  });

  it('null clears a nullable column only, and never a required field', async () => {
    expect(await decode(null, true)).toEqual({ value: null });
    expect(await decode(null, false)).toEqual({ refused: 'backend::validation.required' });
    expect(await decode(null, true, { required: true })).toEqual({ refused: 'backend::validation.required' });
    // `false` is a value: a required switch takes it.
    expect(await decode(false, false, { required: true })).toEqual({ value: false });
  });

  it('are core types: relation and settings forms take them, unlike other plugins’ aliases', () => {
    expect([...CORE_FIELD_TYPES.keys()]).toEqual(['switch', 'checkbox']);
    expect(isPluginFieldType('switch')).toBe(false);
    expect(isPluginFieldType('checkbox')).toBe(false);
    expect(isPluginFieldType('color')).toBe(true);
  });
});

describe('switch and checkbox over HTTP', () => {
  let t: TestAdmin;
  let su: Client;

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [roundsPlugin()] });
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  const stored = (id: number) => t.sql('select is_featured, is_public, is_checked from test_rounds_events where id = ?', [id]);

  it('the form serves the element, and the backend plugin lists both types with their script', async () => {
    const res = await su.get(`${EVENTS}/schema/form`);
    expect(res.status).toBe(200);
    const fields = res.body.data.fields as Array<Record<string, unknown>>;
    expect(fields.find((f) => f.name === 'is_featured')).toEqual({
      name: 'is_featured',
      type: 'switch',
      label: 'Featured',
      element: 'cms-switch',
      translatable: false,
      typeOptions: {},
      // The column's `default(false)` (docs/controllers.md, "Defaults from the entity").
      default: false,
    });
    expect(fields.find((f) => f.name === 'is_checked')).toMatchObject({ type: 'checkbox', element: 'cms-checkbox', required: true });
    const script = /^\/backend\/assets\/cms\/backend\/yes-no\.js\?v=[0-9a-f]+$/;
    expect(res.body.data.assets).toEqual({ scripts: [expect.stringMatching(script)], styles: [] });

    const types = (await su.get('field-types')).body.data as Array<Record<string, unknown>>;
    for (const [alias, element] of [
      ['switch', 'cms-switch'],
      ['checkbox', 'cms-checkbox'],
    ])
      expect(types.find((type) => type.alias === alias)).toEqual({
        alias,
        plugin: 'cms.backend',
        element,
        translatable: false,
        options: [],
        scripts: [expect.stringMatching(script)],
        styles: [],
      });
    const served = await t.http.get(res.body.data.assets.scripts[0]);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toMatch(/javascript/);
    expect(served.text).toContain("'cms-switch', 'cms-checkbox'");
  });

  it('true and false are stored and served as booleans; a nullable checkbox takes null', async () => {
    const created = await su.post(EVENTS, { title: 'Gala', is_featured: true, is_public: false, is_checked: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ is_featured: true, is_public: false, is_checked: true });
    const id = created.body.data.id as number;
    expect(await stored(id)).toEqual([{ is_featured: true, is_public: false, is_checked: true }]);

    const updated = await su.put(`${EVENTS}/${id}`, { is_featured: false, is_public: null });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data).toMatchObject({ is_featured: false, is_public: null, is_checked: true });
    expect(await stored(id)).toEqual([{ is_featured: false, is_public: null, is_checked: true }]);
    expect((await su.get(`${EVENTS}/${id}`)).body.data).toMatchObject({ is_featured: false, is_public: null });

    // Absent on create: the column's default (false), or null on a nullable column.
    const plain = await su.post(EVENTS, { title: 'Plain', is_checked: false });
    expect(plain.body.data).toMatchObject({ is_featured: false, is_public: null, is_checked: false });
  });

  it('"yes", 1, "true" and 0 are refused with the field’s 422, and nothing is written', async () => {
    const id = (await su.post(EVENTS, { title: 'Kept', is_featured: true, is_checked: true })).body.data.id as number;
    const before = await snapshot(t, ROUNDS_TABLES);
    for (const value of ['yes', 1, 'true', 0, 'on', ['true']]) {
      const res = await su.put(`${EVENTS}/${id}`, { is_featured: value });
      expect422(res, ['is_featured']);
      expect(res.body.error.details.is_featured).toEqual(['This field must be true or false.']);
      expect422(await su.post(EVENTS, { title: 'New', is_public: value, is_checked: true }), ['is_public']);
    }
    expect((await su.locale('de').post(EVENTS, { title: 'Neu', is_checked: 'ja' })).body.error.details).toEqual({
      is_checked: ['Dieses Feld muss true oder false sein.'],
    });
    // null on a column that is not nullable, and a required checkbox left out or null.
    expect422(await su.put(`${EVENTS}/${id}`, { is_featured: null }), ['is_featured']);
    expect422(await su.post(EVENTS, { title: 'No tick' }), ['is_checked']);
    expect422(await su.post(EVENTS, { title: 'No tick', is_checked: null }), ['is_checked']);
    expect(await snapshot(t, ROUNDS_TABLES)).toEqual(before);
  });

  it('the list serves true/false (and null) for boolean columns shown as switches, and sorts on them', async () => {
    const res = await su.get(EVENTS, { sort: 'is_featured', dir: 'desc', per_page: '100' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = res.body.data as Array<{ is_featured: unknown; is_public: unknown }>;
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) {
      expect(typeof row.is_featured).toBe('boolean');
      expect(row.is_public === null || typeof row.is_public === 'boolean').toBe(true);
    }
    expect(rows[0]!.is_featured).toBe(true);
    expect(rows.at(-1)!.is_featured).toBe(false);
    const schema = await su.get(`${EVENTS}/schema/list`);
    expect(schema.body.data.columns.find((c: { key: string }) => c.key === 'is_featured')).toMatchObject({ type: 'switch' });
  });
});

describe('switch and checkbox: start-up checks', () => {
  async function startError(patch: (fields: Record<string, any>) => void): Promise<unknown> {
    const fields = eventFields() as Record<string, any>;
    patch(fields);
    return startUpError([roundsPlugin(eventsController(fields))]);
  }

  it('refuses a switch over a column that is not boolean, and keys it does not take', async () => {
    const at = { plugin: 'test.rounds', controller: 'test/rounds/events' };
    assertConfigError(await startError((f) => (f.venue = { type: 'switch', label: 'Venue' })), 'field_column_mismatch', {
      ...at,
      key: 'form.fields.venue',
    });
    assertConfigError(await startError((f) => (f.is_featured.options = { true: 'Yes', false: 'No' })), 'field_key_unknown', {
      ...at,
      key: 'form.fields.is_featured.options',
    });
    assertConfigError(await startError((f) => (f.is_public.element = 'cms-switch')), 'field_option_invalid', {
      ...at,
      key: 'form.fields.is_public.element',
    });
  });
});
