import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '@cms/admin-core';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';

/**
 * Property: whatever arrives under `{prefix}/api/v1/`, the admin answers with a status below 500
 * and, when there is a body, the JSON envelope. Paths mix real route segments with junk, so the
 * requests reach real handlers (with a real token some of the time) as well as the 404.
 */
const vocabulary = [
  'auth',
  'login',
  'logout',
  'refresh',
  'me',
  'lang',
  'navigation',
  'account',
  'preferences',
  'avatar',
  'tokens',
  'api-tokens',
  'cms',
  'journal',
  'posts',
  'acme',
  'catalog',
  'settings',
  'v1',
  '1',
  '0',
  '-1',
  '99999999999999999999',
  '..',
  '.',
  '%2e%2e',
  '%2F',
  '%zz',
  '%',
  '%00',
  '%C3%A4',
  '%E2%80%A8',
  '__proto__',
  'constructor',
];

const ascii = (max: number) => fc.string({ unit: 'grapheme-ascii', maxLength: max }).filter((s) => /^[\x20-\x7e]*$/.test(s));
const segment = fc.oneof(fc.constantFrom(...vocabulary), fc.webSegment(), fc.string({ maxLength: 12 }).map(encodeURIComponent));
const junkPath = fc.array(segment, { minLength: 0, maxLength: 6 }).map((segments) => `${API}/${segments.join('/')}`);
const queryKey = fc.oneof(
  fc.constantFrom('locale', 'page', 'per_page', 'search', 'filter[status]', 'sort', '__proto__', 'constructor', 'a[b][c]', 'locale[]'),
  fc.webSegment(),
);
const queryValue = fc.oneof(
  fc.constantFrom('de', 'en', 'xx', '1', '-1', '1e309', '', '%zz'),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
);
const query = fc.oneof(
  { weight: 2, arbitrary: fc.constant('') },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.tuple(queryKey, queryValue), { minLength: 1, maxLength: 4 })
      .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
  },
);
const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD');
const acceptLanguage = fc.option(
  fc.oneof(fc.constantFrom('de', 'de-AT,de;q=0.9', 'en;q=0', '*', ';q=', 'q=1,,,', 'x'.repeat(300)), ascii(40)),
  { nil: undefined },
);
// `REAL` stands for a fresh valid token (a fuzzed logout or refresh may revoke any one token).
const authorization = fc.option(
  fc.oneof(
    fc.constant('REAL'),
    fc.constant('REAL'),
    fc.constantFrom('Bearer', 'Bearer ', 'Basic abc', 'Bearer cms_pat_x', `Bearer ${'a'.repeat(5000)}`),
    ascii(60),
    ascii(60).map((s) => `Bearer ${s}`),
  ),
  { nil: undefined },
);
const cookie = fc.option(fc.oneof(fc.constantFrom('cms_admin=%zz', 'cms_admin=', 'cms_admin=REAL'), ascii(40)), { nil: undefined });
const body = fc.option(
  fc.oneof(
    fc.jsonValue({ maxDepth: 3 }).map((value) => ({ type: 'application/json', text: JSON.stringify(value) ?? 'null' })),
    fc.record({
      type: fc.constantFrom(
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/octet-stream',
        'application/json; charset=latin1',
      ),
      text: ascii(200),
    }),
  ),
  { nil: undefined },
);

describe('fuzzing the API never answers 500', () => {
  let t: TestAdmin;
  let adminId: number;
  const errors: unknown[] = [];
  const logger: Logger = { info() {}, warn() {}, error: (_message, fields) => errors.push(fields) };
  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node', logger });
    adminId = (await t.createAdmin({ isSuperuser: true })).id;
  });
  afterAll(() => t.close());

  it('every declared route, called plainly by a superuser, answers below 500', async () => {
    const failures: string[] = [];
    for (const route of t.core.routes) {
      for (const path of new Set(['1', '0', 'x'].map((id) => `${API}${route.path.replace(/:\w+/g, id)}`))) {
        const token = (await t.core.auth.issue(adminId, 'bearer')).token;
        const request = t.http[route.method.toLowerCase() as 'get'](path)
          .set('Authorization', `Bearer ${token}`)
          .set('X-Requested-With', 'XMLHttpRequest');
        const res = route.method === 'GET' ? await request : await request.send({});
        if (res.status >= 500) failures.push(`${route.method} ${path} → ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('holds for arbitrary paths, methods, queries, headers and bodies', async () => {
    // Half of the paths are the declared routes (parameters filled with junk), so handlers run.
    const declared = fc
      .tuple(fc.constantFrom(...t.core.routes.map((route) => route.path)), segment)
      .map(([route, value]) => `${API}${route.replace(/:\w+/g, value)}`);
    const routeMethod = fc
      .constantFrom(...t.core.routes.map((route) => [route.method, route.path] as const))
      .chain(([m, route]) =>
        fc
          .tuple(fc.constant(`${API}${route}`), segment)
          .map(([template, value]) => ({ path: template.replace(/:\w+/g, value), method: m as string })),
      );
    const target = fc.oneof(
      fc.tuple(fc.oneof(junkPath, declared), method).map(([p, m]) => ({ path: p, method: m })),
      routeMethod,
    );
    const statuses = new Map<number, number>();
    errors.length = 0;
    await fc.assert(
      fc.asyncProperty(
        target,
        query,
        acceptLanguage,
        authorization,
        cookie,
        body,
        fc.boolean(),
        async ({ path: p, method: m }, q, lang, auth, jar, payload, xhr) => {
          const token = auth === 'REAL' || jar?.includes('REAL') ? (await t.core.auth.issue(adminId, 'bearer')).token : '';
          let request = t.http[m.toLowerCase() as 'get'](`${p}${q}`);
          if (lang !== undefined) request = request.set('Accept-Language', lang);
          if (auth !== undefined) request = request.set('Authorization', auth === 'REAL' ? `Bearer ${token}` : auth);
          if (jar !== undefined) request = request.set('Cookie', jar.replace('REAL', token));
          if (xhr) request = request.set('X-Requested-With', 'XMLHttpRequest');
          if (payload !== undefined && m !== 'GET' && m !== 'HEAD') request = request.set('Content-Type', payload.type).send(payload.text);
          const res = await request;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          expect(res.status, `${m} ${p}${q} → ${res.status} ${res.text}`).toBeLessThan(500);
          expect(res.headers['x-request-id']).toBeDefined();
          if (m !== 'HEAD' && res.status >= 400) {
            expect(res.headers['content-type']).toMatch(/^application\/json/);
            expect(Object.keys(res.body)).toEqual(['error']);
            expect(Object.keys(res.body.error).sort()).toEqual(['code', 'details', 'message']);
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(errors).toEqual([]);
    // The run reached handlers, not only the 404: successes and refusals of several kinds.
    for (const status of [200, 401, 404, 422]) expect(statuses.get(status) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(0);
  });
});
