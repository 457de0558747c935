import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpError } from './startup-error.ts';
import { ConfigError } from '../../src/index.ts';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { EVENTS, eventFields, eventsController, ROUNDS_PERMISSION, ROUNDS_TABLES, roundsPlugin, seen } from './rounds.ts';

/*
 * One round of refusals (docs/controllers.md, "One round of refusals"): unknown and read-only
 * keys, decode errors, cross-field rules, fields' `validate` and the `beforeSave` hook's
 * `Validation` come back in one 422, and nothing is written. Cross-field rules and `validate`
 * are in docs/field-types.md, "Cross-field rules".
 */

describe('one round of refusals over HTTP', () => {
  let t: TestAdmin;
  let su: Client;

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [roundsPlugin()] });
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  const create = async (body: Record<string, unknown>) => {
    const res = await su.post(EVENTS, { is_checked: true, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as Record<string, unknown> & { id: number };
  };

  /** The 422 of `send`, with nothing written. */
  async function refused(send: () => PromiseLike<unknown>) {
    const before = await snapshot(t, ROUNDS_TABLES);
    const res = (await send()) as { status: number; body: { error: { code: string; details: Record<string, string[]> } } };
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(await snapshot(t, ROUNDS_TABLES)).toEqual(before);
    return res.body.error;
  }

  it('an unknown key, a read-only key, bad values, a cross-field rule, `validate` and the hook answer together', async () => {
    const error = await refused(() =>
      su.post(EVENTS, {
        bogus: 1,
        code: 'X1',
        title: 'ok',
        venue: 'Closed hall',
        starts_at: '2030-05-02T10:00:00Z',
        ends_at: '2030-05-01T10:00:00Z',
        capacity: 'many',
        is_featured: 'yes',
        is_checked: true,
      }),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual({
      bogus: ['This key is not allowed here.'],
      code: ['This field is read-only.'],
      title: ['A title has at least 3 characters.'],
      venue: ['This hall is closed.'],
      ends_at: ['This must be later than Starts at.'],
      capacity: ['This field must be a number.'],
      is_featured: ['This field must be true or false.'],
    });
    // The hook ran on the values that passed: not on refused keys, values or rules.
    expect(seen.values).toEqual(['is_checked', 'starts_at', 'venue']);
  });

  it('a hook that needs a refused value gives way to the 422 of the refusals (no 500)', async () => {
    const error = await refused(() => su.post(EVENTS, { title: 42, venue: 'Crash', is_checked: true }));
    expect(error.details).toEqual({ title: ['This field must be a string.'] });
    // Without other refusals the hook's own error is the answer (an opaque 500): a bug is not hidden.
    const event = await create({ title: 'Fine', venue: 'Hall' });
    const before = await snapshot(t, ROUNDS_TABLES);
    const crash = await su.put(`${EVENTS}/${event.id}`, { venue: 'Crash' });
    expect(crash.status).toBe(500);
    expect(crash.body.error.code).toBe('internal_error');
    expect(await snapshot(t, ROUNDS_TABLES)).toEqual(before);
  });

  it('a message of a field, of `validate` and of the hook under one key are all kept', async () => {
    const error = await refused(() => su.post(EVENTS, { title: 'ab', venue: 'Closed hall', capacity: 0, is_checked: null }));
    expect(error.details).toEqual({
      title: ['A title has at least 3 characters.'],
      venue: ['This hall is closed.'],
      capacity: ['This value must be at least 1.'],
      is_checked: ['This field is required.'],
    });
    // Localized in the request's locale, string keys and core messages alike.
    const de = await refused(() => su.locale('de').post(EVENTS, { title: 'ab', venue: 'Closed hall', is_checked: true }));
    expect(de.details).toEqual({ title: ['Ein Titel hat mindestens 3 Zeichen.'], venue: ['Diese Halle ist geschlossen.'] });
  });

  it('`validate` gets the decoded values: literal text is served as written', async () => {
    const error = await refused(() => su.post(EVENTS, { title: 'Camp', venue: 'Hut', capacity: '12', is_checked: true }));
    expect(error.details).toEqual({ capacity: ['A hut holds 10.'] });
    expect((await create({ title: 'Camp', venue: 'Hut', capacity: '10' })).capacity).toBe(10);
  });

  it('`after` and `before` compare with the new value, or the stored one on update; equal is refused', async () => {
    expect422(
      await su.post(EVENTS, { title: 'Same', starts_at: '2030-05-01T10:00:00Z', ends_at: '2030-05-01T12:00:00+02:00', is_checked: true }),
      ['ends_at'],
    );
    expect422(await su.post(EVENTS, { title: 'Ages', min_age: 18, max_age: 18, is_checked: true }), ['min_age']);
    const error = await refused(() => su.post(EVENTS, { title: 'Ages', min_age: 30, max_age: 12, is_checked: true }));
    expect(error.details).toEqual({ min_age: ['This must be less than Maximum age.'] });

    const event = await create({ title: 'Fair', starts_at: '2030-05-01T10:00:00Z', ends_at: '2030-05-03T10:00:00Z', min_age: 6 });
    expect(event).toMatchObject({ starts_at: '2030-05-01T10:00:00.000Z', ends_at: '2030-05-03T10:00:00.000Z' });
    // Only one side sent: the other side's stored value counts, and the rule names the field that declares it.
    expect422(await su.put(`${EVENTS}/${event.id}`, { ends_at: '2030-04-30T10:00:00Z' }), ['ends_at']);
    expect422(await su.put(`${EVENTS}/${event.id}`, { starts_at: '2030-05-04T00:00:00Z' }), ['ends_at']);
    // The other side refused or cleared: nothing to compare with.
    expect422(await su.put(`${EVENTS}/${event.id}`, { starts_at: 'soon', ends_at: '2030-04-30T10:00:00Z' }), ['starts_at']);
    const cleared = await su.put(`${EVENTS}/${event.id}`, { starts_at: null, ends_at: '2030-04-30T10:00:00Z' });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    // A number rule with a stored side: max_age absent (null) on the record, then set below min_age.
    expect422(await su.put(`${EVENTS}/${event.id}`, { max_age: 5 }), ['min_age']);
    const ok = await su.put(`${EVENTS}/${event.id}`, { max_age: 7, starts_at: '2030-04-01T00:00:00Z' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ min_age: 6, max_age: 7 });
  });

  it('an update refuses unknown keys beside bad values in one answer, and writes nothing', async () => {
    const event = await create({ title: 'Keep' });
    const error = await refused(() => su.put(`${EVENTS}/${event.id}`, { nope: true, id: 5, title: '', is_public: 'no' }));
    expect(error.details).toEqual({
      nope: ['This key is not allowed here.'],
      id: ['This key is not allowed here.'],
      title: ['This field is required.'],
      is_public: ['This field must be true or false.'],
    });
  });

  it('settings: unknown keys, bad values, cross-field rules and `validate` in one 422', async () => {
    const before = await t.sql('select count(*)::int as n from cms_settings');
    const res = await su.put('settings/rounds', { extra: 1, limit: 11, enabled: 'on', motto: 'nope' });
    expect422(res, ['extra', 'limit', 'enabled', 'motto']);
    expect(res.body.error.details).toEqual({
      extra: ['This key is not allowed here.'],
      limit: ['This value may be at most 10.'],
      enabled: ['This field must be true or false.'],
      motto: ['Not this motto.'],
    });
    expect(await t.sql("select count(*)::int as n from cms_settings where data::text <> '{}'")).toEqual([{ n: 0 }]);
    expect(before).toBeDefined();
    expect422(await su.put('settings/rounds', { limit: 5, floor: 5 }), ['floor']);
    const saved = await su.put('settings/rounds', { limit: 5, floor: 2, enabled: true, motto: 'yes' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({ limit: 5, floor: 2, enabled: true, motto: 'yes' });
    // The stored side: the floor may not reach the stored limit.
    expect422(await su.put('settings/rounds', { floor: 9 }), ['floor']);
  });

  it('a field write refusal (403) wins over the 422 refusals, alone, before any hook runs', async () => {
    const limited = await signIn(t, { permissions: { [ROUNDS_PERMISSION]: 1 } });
    seen.values = undefined;
    const before = await snapshot(t, ROUNDS_TABLES);
    const res = await limited.post(EVENTS, { title: 'x', bogus: 1, is_featured: true, capacity: 'many', is_checked: true });
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'forbidden', details: { is_featured: [expect.any(String)] } });
    expect(Object.keys(res.body.error.details)).toEqual(['is_featured']);
    expect(seen.values).toBeUndefined();
    expect(await snapshot(t, ROUNDS_TABLES)).toEqual(before);
    // Without the guarded value, the same admin gets the one 422.
    expect422(await limited.post(EVENTS, { title: 'x', bogus: 1, capacity: 'many', is_checked: true }), ['bogus', 'capacity', 'title']);
  });
});

describe('cross-field rules and `validate`: start-up checks', () => {
  async function startError(patch: (fields: Record<string, any>) => void): Promise<unknown> {
    const fields = eventFields() as Record<string, any>;
    patch(fields);
    return startUpError([roundsPlugin(eventsController(fields))]);
  }

  const refusals: Array<[string, (fields: Record<string, any>) => void, string, RegExp]> = [
    ['a rule naming a missing field', (f) => (f.ends_at.after = 'start'), 'form.fields.ends_at.after', /the form has no field "start"/],
    ['a rule naming the field itself', (f) => (f.ends_at.after = 'ends_at'), 'form.fields.ends_at.after', /does not name another field/],
    ['a rule on a text field', (f) => (f.venue.before = 'title'), 'form.fields.venue.before', /a text field has none/],
    [
      'a datepicker compared with a number',
      (f) => (f.ends_at.after = 'capacity'),
      'form.fields.ends_at.after',
      /"capacity" is a number field and cannot be compared with this datetime field/,
    ],
    [
      'dates of different modes',
      (f) => (f.ends_at.after = 'opens_on'),
      'form.fields.ends_at.after',
      /"opens_on" is a date field and cannot be compared with this datetime field/,
    ],
    ['a rule that is not a string', (f) => (f.min_age.before = ['max_age']), 'form.fields.min_age.before', /does not name another field/],
    ['`validate` that is not a function', (f) => (f.title.validate = 'short'), 'form.fields.title.validate', /must be a function/],
  ];
  for (const [what, patch, key, problem] of refusals) {
    it(`refuses ${what}, naming plugin, controller, field and key`, async () => {
      const error = await startError(patch);
      expect(error, what).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain('test.rounds');
      expect(message).toContain(EVENTS);
      expect(message).toContain(`"${key}"`);
      expect(message).toMatch(problem);
    });
  }
});
