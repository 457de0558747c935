import Koa from 'koa';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type TestAdmin } from '../../../test/support/app.ts';
import { setCookies, XHR } from '../../../test/support/auth.ts';

const expectSecurityHeaders = (headers: Record<string, string>) => {
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
};

/**
 * What is Koa's in `createAdmin` (docs/host-guide.md): the middleware in a host app, next to the
 * host's own middleware. Everything the admin answers is the core's and is tested there.
 */
describe('the admin mounted in a host Koa app', () => {
  let t: TestAdmin;
  let host: ReturnType<typeof supertest>;
  beforeAll(async () => {
    t = await startTestAdmin();
    // A host app as a user writes it: its own middleware first, the admin, then the host's routes.
    const app = new Koa();
    app.use(async (ctx, next) => {
      ctx.append('Set-Cookie', 'host_visit=1; Path=/');
      if (ctx.path === '/backend/status') {
        ctx.body = 'host status';
        return;
      }
      await next();
    });
    app.use(t.admin.middleware);
    app.use(async (ctx, next) => {
      if (ctx.path === '/hello') {
        ctx.body = 'hello from the host';
        return;
      }
      if (ctx.path === '/backend-notes' || ctx.path === '/backendx' || ctx.path === '/backend/notes') {
        ctx.body = `host ${ctx.path}`;
        return;
      }
      await next();
    });
    host = supertest(app.callback());
  });
  afterAll(() => t.close());

  it('answers HEAD like GET, without a body', async () => {
    const res = await host.head('/backend/cms/journal/posts');
    expect(res.status).toBe(200);
    expectSecurityHeaders(res.headers);
  });

  it('lets paths outside the prefix fall through to the host', async () => {
    const hello = await host.get('/hello');
    expect(hello.status).toBe(200);
    expect(hello.text).toBe('hello from the host');
    expect(hello.headers['x-request-id']).toBeUndefined();
    const x = await host.get('/backendx');
    expect(x.text).toBe('host /backendx');
    const notes = await host.get('/backend-notes');
    expect(notes.text).toBe('host /backend-notes');
    const missing = await host.get('/nowhere');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type'] ?? '').not.toMatch(/json/);
  });

  it('a host error further down is not turned into an admin envelope', async () => {
    const app = new Koa();
    app.silent = true;
    app.use(t.admin.middleware);
    app.use(() => {
      throw new Error('host failure');
    });
    const res = await supertest(app.callback()).get('/hello');
    expect(res.status).toBe(500);
    expect(res.text).toBe('Internal Server Error');
  });

  it('appends its cookies to the ones the host set through ctx', async () => {
    const admin = await t.createAdmin();
    const res = await host.post(`${API}/auth/login`).set(XHR).send({ login: admin.login, password: admin.password });
    expect(res.status).toBe(200);
    const cookies = setCookies(res);
    expect(cookies).toHaveLength(2);
    expect(cookies[0]).toBe('host_visit=1; Path=/');
    expect(cookies[1]).toMatch(/^cms_admin=Fe26\.2\*/);
  });

  it('keeps the order of app.use: a host route before the admin wins, the admin wins over one after it', async () => {
    const before = await host.get('/backend/status');
    expect(before.text).toBe('host status');
    expect(before.headers['x-request-id']).toBeUndefined();
    // Under the prefix, a GET the admin does not know is its shell: the host route after it never runs.
    const after = await host.get('/backend/notes');
    expect(after.status).toBe(200);
    expect(after.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(after.text).not.toBe('host /backend/notes');
    expect(after.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
