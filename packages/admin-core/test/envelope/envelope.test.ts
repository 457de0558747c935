import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePlugin, type Logger } from '@cms/admin-core';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';

interface LoggedLine {
  level: string;
  message: string;
  fields: Record<string, unknown>;
}

/** Routes outside the prefix that provoke what the admin must survive. */
const testPlugin = definePlugin({
  vendor: 'test',
  name: 'envelope',
  routes: [
    {
      method: 'GET',
      path: '/_test/boom',
      auth: 'public',
      handler: () => {
        throw new Error('database password is hunter2');
      },
    },
    {
      method: 'POST',
      path: '/_test/echo',
      auth: 'public',
      body: 'json',
      handler: (req) => ({ status: 200, body: { data: req.body, meta: {} } }),
    },
  ],
});

const expectEnvelope = (body: unknown, code: string) => {
  expect(body).toEqual({ error: { code, message: expect.any(String), details: expect.any(Object) } });
};

describe('envelopes and errors', () => {
  let t: TestAdmin;
  const lines: LoggedLine[] = [];
  const logger: Logger = {
    info: (message, fields = {}) => lines.push({ level: 'info', message, fields }),
    warn: (message, fields = {}) => lines.push({ level: 'warn', message, fields }),
    error: (message, fields = {}) => lines.push({ level: 'error', message, fields }),
  };
  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node', plugins: [testPlugin], logger });
  });
  afterAll(() => t.close());

  describe('unknown routes under the API answer the JSON 404 envelope', () => {
    const paths = [
      `${API}/nope`,
      `${API}/cms/journal/posts/1/2/3/4/5/6`,
      `${API}`,
      `${API}/`,
      '/backend/api',
      '/backend/api/',
      '/backend/api/v2/lang',
      '/backend/api/x',
    ];
    for (const method of ['get', 'post', 'put', 'delete', 'patch', 'options'] as const) {
      it.each(paths)(`${method.toUpperCase()} %s`, async (path) => {
        const res = await t.http[method](path).set('Accept', 'text/html');
        expect(res.status).toBe(404);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        expectEnvelope(res.body, 'not_found');
        expect(res.body.error).toEqual({ code: 'not_found', message: 'Not found.', details: {} });
      });
    }

    it('a known path with another method is a 404 too', async () => {
      const res = await t.http.delete(`${API}/lang`);
      expect(res.status).toBe(404);
      expectEnvelope(res.body, 'not_found');
    });

    it('is localized by Accept-Language', async () => {
      const res = await t.http.get(`${API}/nope`).set('Accept-Language', 'de-DE');
      expect(res.body.error.message).toBe('Nicht gefunden.');
    });
  });

  describe('request bodies', () => {
    it('malformed JSON is a 422 with details', async () => {
      const res = await t.http.post(`${API}/auth/login`).set('Content-Type', 'application/json').send('{"login": "x", ');
      expect(res.status).toBe(422);
      expectEnvelope(res.body, 'validation_failed');
      expect(res.body.error.details.body).toEqual(['The request body is not valid JSON.']);
    });

    it.each([
      ['text/plain', 'login=x&password=y'],
      ['application/x-www-form-urlencoded', 'login=x&password=y'],
      ['application/xml', '<login/>'],
      ['multipart/form-data; boundary=x', '--x--'],
    ])('a body of type %s is a 422', async (type, body) => {
      const res = await t.http.post(`${API}/auth/login`).set('Content-Type', type).send(body);
      expect(res.status).toBe(422);
      expectEnvelope(res.body, 'validation_failed');
      expect(res.body.error.details.body).toEqual(['The request body must be sent as application/json.']);
    });

    it.each(['[1,2]', '42', '"text"', 'true', 'null'])('a JSON body %s that is not an object is a 422', async (body) => {
      for (const path of [`${API}/auth/login`, '/_test/echo']) {
        const res = await t.http.post(path).set('Content-Type', 'application/json').send(body);
        expect(res.status).toBe(422);
        expectEnvelope(res.body, 'validation_failed');
        expect(res.body.error.details.body).toEqual(['The request body must be a JSON object.']);
      }
    });

    it('a JSON object passes through, also with a +json or charset type', async () => {
      const res = await t.http.post('/_test/echo').set('Content-Type', 'application/json; charset=utf-8').send('{"a":[1,{"b":null}]}');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ a: [1, { b: null }] });
      const vendor = await t.http.post('/_test/echo').set('Content-Type', 'application/vnd.api+json').send('{"a":1}');
      expect(vendor.status).toBe(200);
    });

    it('a POST without a body is an empty body, not a type error', async () => {
      const res = await t.http.post('/_test/echo');
      expect(res.status).toBe(200);
      expect(res.body.data ?? {}).toEqual({});
    });

    it('a JSON body over 1 MiB is a 422, not a 500 (declared length)', async () => {
      const big = JSON.stringify({ login: 'x', password: 'y', pad: 'a'.repeat(1024 * 1024) });
      const res = await t.http.post(`${API}/auth/login`).set('Content-Type', 'application/json').send(big);
      expect(res.status).toBe(422);
      expectEnvelope(res.body, 'validation_failed');
      expect(res.body.error.details.body).toEqual(['The request body is too large.']);
    });

    it('a JSON body just under 1 MiB is parsed', async () => {
      const res = await t.http
        .post('/_test/echo')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ pad: 'a'.repeat(1024 * 1024 - 100) }));
      expect(res.status).toBe(200);
    });

    it('a JSON type koa-body does not list by default (+json) is parsed, not silently dropped', async () => {
      const res = await t.http.post('/_test/echo').set('Content-Type', 'application/ld+json').send('{"a":1}');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ a: 1 });
    });
  });

  describe('an unexpected error', () => {
    it('is an opaque 500 with the request id in a header and in the log', async () => {
      lines.length = 0;
      const res = await t.http.get('/_test/boom');
      expect(res.status).toBe(500);
      const requestId = res.headers['x-request-id'];
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.body).toEqual({
        error: { code: 'internal_error', message: `Something went wrong on our side. The request id is ${requestId}.`, details: {} },
      });
      const text = JSON.stringify(res.body);
      expect(text).not.toContain('hunter2');
      expect(text).not.toMatch(/at .*\.ts:\d+/);
      const logged = lines.filter((line) => line.level === 'error');
      expect(logged).toHaveLength(1);
      expect(logged[0]!.fields.request_id).toBe(requestId);
      expect(String(logged[0]!.fields.error)).toContain('hunter2');
    });

    it('is localized', async () => {
      const res = await t.http.get('/_test/boom').set('Accept-Language', 'de');
      expect(res.status).toBe(500);
      expect(res.body.error.message).toContain('Auf unserer Seite ist ein Fehler aufgetreten');
    });
  });

  describe('X-Request-Id', () => {
    it.each([
      ['GET', `${API}/lang`],
      ['GET', `${API}/navigation`],
      ['POST', `${API}/auth/login`],
      ['GET', `${API}/nope`],
      ['GET', '/backend'],
      ['GET', '/backend/cms/journal/posts'],
      ['POST', '/_test/echo'],
    ])('is on %s %s, unique per request', async (method, path) => {
      const send = () => (method === 'GET' ? t.http.get(path) : t.http.post(path).send({}));
      const [a, b] = [await send(), await send()];
      expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id']);
    });
  });

  it('success and error answers are JSON with nosniff and no-store', async () => {
    const lang = await t.http.get(`${API}/lang`);
    expect(lang.headers['x-content-type-options']).toBe('nosniff');
    const me = await t.http.get(`${API}/auth/me`);
    expect(me.status).toBe(401);
    expectEnvelope(me.body, 'unauthenticated');
    expect(me.headers['cache-control']).toBe('no-store');
  });
});
