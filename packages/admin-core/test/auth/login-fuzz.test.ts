import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from 'supertest';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';

/** Whatever arrives at the auth routes, the answer is an envelope and never a 500. */
describe('auth input handling (property-based)', () => {
  let t: TestAdmin;
  beforeAll(async () => {
    // Generous limits so that the properties reach the password check instead of the throttle.
    t = await startTestAdmin({
      adapter: 'node',
      throttle: { login: { max: 100_000, windowSeconds: 60 }, address: { max: 100_000, windowSeconds: 60 } },
    });
    await t.createAdmin({ login: 'fuzz', email: 'fuzz@example.com', password: 'fuzz password 1' });
  }, 60_000);
  afterAll(() => t.close());

  const expectEnvelope = (response: Response) => {
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
    const keys = Object.keys(response.body ?? {});
    expect(keys.length === 1 ? keys : keys.sort(), JSON.stringify(response.body)).toEqual(
      response.status < 400 ? ['data', 'meta'] : ['error'],
    );
  };

  /** Any character a client can put into a header value (Node refuses control characters). */
  const headerValue = fc.string({
    unit: fc.oneof(
      fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
      fc.integer({ min: 0x80, max: 0xff }).map((code) => String.fromCharCode(code)),
      fc.constantFrom('Bearer ', 'cms_pat_', 'Fe26.2**', 'cms_admin=', ';', '=', '%', ','),
    ),
    maxLength: 120,
  });

  const scalar = fc.oneof(fc.string({ maxLength: 40 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
  const fieldValue = fc.oneof(
    scalar,
    fc.array(scalar, { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), scalar, { maxKeys: 3 }),
    fc.string({ maxLength: 300 }),
  );
  /** Bodies near the real shape: known keys with any values, sometimes an extra key. */
  const loginLike = fc.record(
    {
      login: fc.oneof(fieldValue, fc.constantFrom('fuzz', 'FUZZ ', 'fuzz/', '')),
      email: fc.oneof(fieldValue, fc.constant('fuzz@example.com')),
      password: fc.oneof(fieldValue, fc.constant('fuzz password 1')),
      extra: fieldValue,
    },
    { requiredKeys: [] },
  );

  it('answers arbitrary JSON bodies with an envelope', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (value) => {
        const response = await t.http.post(`${API}/auth/login`).set('Content-Type', 'application/json').send(JSON.stringify(value));
        expectEnvelope(response);
      }),
      { numRuns: 150 },
    );
  });

  it('answers login-shaped bodies with an envelope', async () => {
    await fc.assert(
      fc.asyncProperty(loginLike, fc.boolean(), async (body, xhr) => {
        let request = t.http.post(`${API}/auth/login`);
        if (xhr) request = request.set('X-Requested-With', 'XMLHttpRequest');
        const response = await request.send(body);
        expectEnvelope(response);
        expect([200, 401, 422]).toContain(response.status);
      }),
      { numRuns: 60 },
    );
  });

  it('answers raw, possibly malformed bodies of any content type with an envelope', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 200 }),
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
          'application/vnd.api+json',
          'application/octet-stream',
        ),
        async (raw, type) => {
          const response = await t.http.post(`${API}/auth/login`).set('Content-Type', type).send(raw);
          expectEnvelope(response);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('answers arbitrary credential and locale headers with an envelope', async () => {
    const routes = [
      ['post', '/auth/login'],
      ['post', '/auth/logout'],
      ['post', '/auth/refresh'],
      ['get', '/auth/me'],
      ['get', '/account/tokens'],
    ] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.record(
          {
            authorization: headerValue,
            cookie: headerValue,
            'x-requested-with': headerValue,
            'accept-language': headerValue,
            'content-type': fc.oneof(headerValue, fc.constant('application/json')),
          },
          { requiredKeys: [] },
        ),
        async ([method, path], headers) => {
          let request = t.http[method](`${API}${path}`);
          for (const [name, value] of Object.entries(headers)) request = request.set(name, value);
          const response =
            method === 'post' && path === '/auth/login'
              ? await request.send(JSON.stringify({ login: 'nobody', password: 'x' }))
              : await request;
          expectEnvelope(response);
        },
      ),
      { numRuns: 150 },
    );
  });
});
