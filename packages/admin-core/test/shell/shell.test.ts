import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderShell } from '@cms/admin-core/adapter';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';

const bootOf = (html: string) => {
  const match = /<script type="application\/json" id="cms-admin-boot">([\s\S]*?)<\/script>/.exec(html);
  expect(match).not.toBeNull();
  return JSON.parse(match![1]!) as Record<string, unknown>;
};

const expectSecurityHeaders = (headers: Record<string, string>) => {
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['content-security-policy']).toContain("default-src 'self'");
  expect(headers['content-security-policy']).toContain("object-src 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('same-origin');
};

describe('admin shell', () => {
  let t: TestAdmin;
  let host: TestAdmin['http'];
  beforeAll(async () => {
    // `ui: false`: the page of a host serving its own client (test/ui/ covers a served application).
    t = await startTestAdmin({ adapter: 'node', ui: false });
    host = t.http;
  });
  afterAll(() => t.close());

  it.each([
    '/backend',
    '/backend/',
    '/backend/cms/journal/posts/update/1',
    '/backend/login',
    '/backend/settings/x',
    '/BACKEND/Cms',
    '/backend/assets/cms/journal/missing.js',
  ])('serves the shell at %s without auth, with security headers', async (path) => {
    const res = await host.get(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expectSecurityHeaders(res.headers);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.text).toMatch(/^<!doctype html>/);
    expect(bootOf(res.text)).toEqual({
      prefix: '/backend',
      apiBase: '/backend/api/v1',
      locale: 'en',
      locales: ['en', 'de'],
      fallbackLocale: 'en',
      themes: ['light', 'dark', 'auto'],
      version: null,
      assetBase: '/backend/assets/_ui/',
    });
    expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(res.text).toContain('<noscript>The admin needs JavaScript.</noscript>');
  });

  it('negotiates the page language', async () => {
    const res = await host.get('/backend').set('Accept-Language', 'de-AT');
    expect(res.text).toContain('<html lang="de">');
    expect(bootOf(res.text).locale).toBe('de');
  });

  it('keeps the API apart from the shell', async () => {
    const res = await host.get('/backend/api/anything');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const lang = await host.get(`${API}/lang`);
    expect(lang.status).toBe(200);
    expect(lang.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('renderShell', () => {
  it('keeps `</script>` and HTML in boot data and title from breaking out', () => {
    const evil = '</script><script>alert(1)</script><!--';
    const { html } = renderShell({
      prefix: `/x${evil}`,
      apiBase: `/x${evil}/api/v1`,
      locale: `en"${evil}`,
      locales: ['en', evil],
      fallbackLocale: 'en',
      themes: [evil],
      title: evil,
    });
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).not.toContain('<!--');
    const boot = bootOf(html);
    expect(boot.prefix).toBe(`/x${evil}`);
    expect(boot.locales).toEqual(['en', evil]);
    expect(html).toContain('<title>&lt;/script&gt;');
  });

  it('escapes line separators so the boot data stays valid in any script context', () => {
    const { html } = renderShell({ prefix: '/a\u2028b', apiBase: '/a', locale: 'en', locales: ['en'], fallbackLocale: 'en', themes: [] });
    expect(html).not.toContain('\u2028');
    expect(bootOf(html).prefix).toBe('/a\u2028b');
  });

  it('sets a fresh nonce per page and the full header set', () => {
    const a = renderShell({ prefix: '/b', apiBase: '/b/api/v1', locale: 'en', locales: ['en'], fallbackLocale: 'en', themes: [] });
    const b = renderShell({ prefix: '/b', apiBase: '/b/api/v1', locale: 'en', locales: ['en'], fallbackLocale: 'en', themes: [] });
    expect(a.headers['Content-Security-Policy']).not.toBe(b.headers['Content-Security-Policy']);
    expect(a.headers).toMatchObject({ 'X-Frame-Options': 'DENY', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'same-origin' });
  });
});
