import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DETAIL_FIELDS, MAX_FIELD_MESSAGES, MAX_REFUSAL_BYTES, refusalWork } from '../../src/errors/details.ts';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { ADMINS, type Client, expect422, signIn, snapshot } from '../../../../test/support/client.ts';
import { prefsPlugin } from '../fixtures/settings.ts';

/*
 * Bounded refusals (docs/errors.md, "Bounded refusals"): whatever a body holds, its 422 names at
 * most 50 fields of at most 3 messages, closes with `body: ["… and N more problems"]`, stays
 * within 16 KiB, and builds a bounded number of problems on the way. These tests count what a
 * refusal builds and answers; the time it takes is a figure of `pnpm bench`, not an assertion.
 */

/** A body of `n` keys none of the routes declare, about 10 bytes each. */
function unknownKeys(n: number, base: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = { ...base };
  for (let i = 0; i < n; i++) body[`k${i.toString(36)}`] = 0;
  return body;
}

interface Refusal {
  status: number;
  bytes: number;
  details: Record<string, string[]>;
  message: string;
  problems: number;
}

/** Answers what a request's refusal measured: its size, its details, the problems it built. */
async function refusalOf(send: () => PromiseLike<{ status: number; text: string; body: any }>): Promise<Refusal> {
  const before = refusalWork.problems;
  const res = await send();
  return {
    status: res.status,
    bytes: Buffer.byteLength(res.text, 'utf8'),
    details: res.body.error?.details ?? {},
    message: res.body.error?.message ?? '',
    problems: refusalWork.problems - before,
  };
}

/** The bounds every refusal keeps, with the closing entry counting what was left out. */
function expectBounded(refusal: Refusal, more: number) {
  expect(refusal.status).toBe(422);
  expect(refusal.bytes).toBeLessThanOrEqual(MAX_REFUSAL_BYTES);
  const keys = Object.keys(refusal.details);
  expect(keys.length).toBeLessThanOrEqual(MAX_DETAIL_FIELDS + 1);
  for (const messages of Object.values(refusal.details)) expect(messages.length).toBeLessThanOrEqual(MAX_FIELD_MESSAGES);
  expect(keys.at(-1)).toBe('body');
  const closing = refusal.details.body!.at(-1)!;
  expect(closing).toBe(`… and ${more} more problems`);
  expect(refusal.message.endsWith(closing)).toBe(true);
  // What the refusal built is bounded by the detail bounds (and the validator's cut copy), not by
  // the body: tens of thousands of problems in, at most a few hundred built.
  expect(refusal.problems).toBeLessThanOrEqual(2 * MAX_DETAIL_FIELDS * MAX_FIELD_MESSAGES + 1100);
}

describe('bounded refusals', () => {
  let t: TestAdmin;
  let root: Client;
  beforeAll(async () => {
    t = await startTestAdmin({
      plugins: [prefsPlugin],
      throttle: { login: { max: 1000, windowSeconds: 60 }, address: { max: 5, windowSeconds: 60 } },
    });
    root = await signIn(t, { isSuperuser: true, login: 'root' });
  });
  afterAll(() => t.close());
  afterEach(() => t.sql('delete from cms_throttle'));

  it('answers an anonymous login of 100,000 unknown keys with 50 fields and a count of the rest', async () => {
    const body = unknownKeys(100_000, { login: 'nobody', password: 'x' });
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(1024 * 1024);
    const refusal = await refusalOf(() => t.http.post(`${API}/auth/login`).send(body));
    expect(Object.keys(refusal.details)).toHaveLength(MAX_DETAIL_FIELDS + 1);
    expectBounded(refusal, 100_000 - MAX_DETAIL_FIELDS);
    expect(refusal.details.k0).toEqual(['This key is not allowed here.']);
    expect(refusal.message).toBe(`The data you sent is not valid. … and ${100_000 - MAX_DETAIL_FIELDS} more problems`);
  });

  it('says the count in the asker’s language', async () => {
    const refusal = await refusalOf(() =>
      t.http
        .post(`${API}/auth/login`)
        .set('Accept-Language', 'de')
        .send(unknownKeys(60, { login: 'x', password: 'y' })),
    );
    expect(refusal.details.body!.at(-1)).toMatch(/^… und 10 weitere Probleme$/);
  });

  it('counts anonymous refusals toward the address throttle, and refuses an address over it before reading its body', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await t.http.post(`${API}/auth/login`).send(unknownKeys(3, { login: 'x', password: 'y' }))).status).toBe(422);
    }
    const [row] = await t.sql<{ hits: number }>(`select hits from cms_throttle where key like 'address:%'`);
    expect(row!.hits).toBe(5);
    // Over the limit: 429, and the body is not examined (no problem built).
    const before = refusalWork.problems;
    const res = await t.http.post(`${API}/auth/login`).send(unknownKeys(10_000));
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('too_many_requests');
    expect(refusalWork.problems).toBe(before);
  });

  it('answers a bulk delete of 250,000 ids with one problem of the list, in items', async () => {
    const ids = new Array(250_000).fill(1);
    const refusal = await refusalOf(() => root.post(`${ADMINS}/bulk-delete`, { ids }));
    expect(refusal.status).toBe(422);
    expect(refusal.bytes).toBeLessThanOrEqual(MAX_REFUSAL_BYTES);
    expect(refusal.details, JSON.stringify(refusal.details).slice(0, 500)).toHaveProperty('ids');
    expect(refusal.details.ids).toEqual(['This list may have at most 1000 items.']);
    expect(refusal.problems).toBeLessThanOrEqual(10);
  });

  it('answers a bulk delete of 1,000 wrong ids within the bounds', async () => {
    const ids = Array.from({ length: 1000 }, () => 'not an id');
    const refusal = await refusalOf(() => root.post(`${ADMINS}/bulk-delete`, { ids }));
    expectBounded(refusal, 1000 - MAX_DETAIL_FIELDS);
    expect(refusal.details['ids[0]']).toBeDefined();
  });

  it('bounds a record save of many unknown keys, and writes nothing', async () => {
    const before = await snapshot(t, ['cms_admins']);
    const refusal = await refusalOf(() =>
      root.post(ADMINS, unknownKeys(50_000, { login: 'fresh', email: 'fresh@example.com', password: 'a fine password' })),
    );
    expectBounded(refusal, 50_000 - MAX_DETAIL_FIELDS);
    expect(await snapshot(t, ['cms_admins'])).toEqual(before);
  });

  it('bounds a settings save of many unknown keys', async () => {
    const refusal = await refusalOf(() => root.put('settings/shop', unknownKeys(50_000, { title: 'Shop' })));
    expectBounded(refusal, 50_000 - MAX_DETAIL_FIELDS);
  });

  it('bounds keys a client makes long', async () => {
    const long = 'x'.repeat(5000);
    const body = { login: 'x', password: 'y', [long]: 1, [`${long}2`]: 2 };
    const res = await t.http.post(`${API}/auth/login`).send(body);
    expect(res.status).toBe(422);
    for (const key of Object.keys(res.body.error.details)) expect(key.length).toBeLessThanOrEqual(120);
  });

  it('still names every problem of an ordinary body in one round', async () => {
    // Within the schema's declared sizes, every key is named, with no closing count.
    const res = await root.post(ADMINS, { login: '', email: 'not an email', password: 'x', nope: 1, other: 2 });
    expect422(res, ['login', 'email', 'password', 'nope', 'other']);
  });
});
