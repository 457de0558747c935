import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExampleApp } from '../../src/app.ts';
import { API, createTestDatabase, start, type Started, type TestDatabase } from '../support/app.ts';

/** The `data` of a JSON envelope. */
const data = async <T>(response: Response): Promise<T> => ((await response.json()) as { data: T }).data;

const login = (url: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${url}${API}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('the example app with a generated password', () => {
  let db: TestDatabase;
  let dataDir: string;
  let first: Started;
  let password: string;
  let token: string;
  const running: ExampleApp[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'cms-example-'));
    first = await start(db, dataDir);
    running.push(first.app);
  });
  afterAll(async () => {
    for (const app of running) await app.close();
    await db.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('logs one ready line with the admin URL, the seeded login and the generated password', () => {
    expect(first.lines).toHaveLength(1);
    const match = /^Admin ready at (http:\/\/127\.0\.0\.1:\d+\/backend) - sign in as "admin" with password "([^"]+)"/.exec(first.lines[0]!);
    expect(match).not.toBeNull();
    expect(match![1]).toBe(first.app.url);
    password = match![2]!;
    expect(password.length).toBeGreaterThanOrEqual(16);
  });

  it('seeds one superuser with the default login and email', async () => {
    const rows = await first.app.admin.core.db.orm.em.fork().execute('select login, email, is_superuser from cms_admins');
    expect(rows).toEqual([{ login: 'admin', email: 'admin@example.com', is_superuser: true }]);
  });

  it('serves the admin shell at /backend as HTML, and sends / there', async () => {
    const shell = await fetch(first.app.url);
    expect(shell.status).toBe(200);
    expect(shell.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await shell.text()).toMatch(/^<!doctype html>/);
    const root = await fetch(first.app.url.replace(/\/backend$/, '/'), { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/backend');
  });

  it('signs in the seeded superuser, whose navigation shows the journal and the catalog', async () => {
    const response = await login(first.app.url, { login: 'admin', password });
    expect(response.status).toBe(200);
    token = (await data<{ access_token: string }>(response)).access_token;
    const navigation = await fetch(`${first.app.url}${API}/navigation`, { headers: { authorization: `Bearer ${token}` } });
    expect(navigation.status).toBe(200);
    const entries = await data<Array<{ code: string; controller: string; sideMenu: Array<{ controller: string }> }>>(navigation);
    // In this order, whatever other plugin the app mounts.
    expect(entries.map((entry) => entry.code).filter((code) => ['journal', 'catalog', 'system'].includes(code))).toEqual([
      'journal',
      'catalog',
      'system',
    ]);
    expect(entries.find((e) => e.code === 'journal')!.sideMenu.map((e) => e.controller)).toEqual([
      'cms/journal/posts',
      'cms/journal/categories',
    ]);
    expect(entries.find((e) => e.code === 'catalog')!.sideMenu.map((e) => e.controller)).toEqual([
      'acme/catalog/products',
      'acme/catalog/storefront',
    ]);
  });

  it('keeps the generated secret under the data directory, readable by its owner only', async () => {
    const file = join(dataDir, 'app-secret');
    expect((await readFile(file, 'utf8')).trim().length).toBeGreaterThanOrEqual(32);
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o077).toBe(0);
  });

  it('sets a session cookie without Secure outside production', async () => {
    const response = await login(first.app.url, { login: 'admin', password }, { 'x-requested-with': 'XMLHttpRequest' });
    expect(response.status).toBe(200);
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^cms_admin=/);
    expect(cookie).not.toMatch(/Secure/);
  });

  it('after a restart: no password printed, no second admin, and sessions still valid', async () => {
    await first.app.close();
    const second = await start(db, dataDir);
    running.push(second.app);
    expect(second.lines).toEqual([`Admin ready at ${second.app.url} - sign in as "admin"`]);
    expect(second.lines.join('\n')).not.toContain(password);
    const count = await second.app.admin.core.db.orm.em.fork().execute('select count(*)::int as n from cms_admins');
    expect(count[0]!.n).toBe(1);
    const me = await fetch(`${second.app.url}${API}/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect((await data<{ login: string }>(me)).login).toBe('admin');
    expect((await login(second.app.url, { login: 'admin', password })).status).toBe(200);
    await second.app.close();
  });

  it('in production: needs APP_SECRET, and the cookie is Secure', async () => {
    await expect(start(db, dataDir, { NODE_ENV: 'production' })).rejects.toThrow(/APP_SECRET is required/);
    const prod = await start(db, dataDir, { NODE_ENV: 'production', APP_SECRET: 'a-production-secret-of-enough-length-0123' });
    running.push(prod.app);
    const response = await login(prod.app.url, { login: 'admin', password }, { 'x-requested-with': 'XMLHttpRequest' });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(/; Secure/);
    await prod.app.close();
  });
});

describe('the example app with ADMIN_LOGIN, ADMIN_EMAIL and ADMIN_PASSWORD', () => {
  let db: TestDatabase;
  let dataDir: string;
  let started: Started | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'cms-example-'));
  });
  afterAll(async () => {
    await started?.app.close();
    await db.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('seeds that superuser and never prints the password', async () => {
    const env = { ADMIN_LOGIN: 'editor', ADMIN_EMAIL: 'Editor@Example.org', ADMIN_PASSWORD: 'a chosen password' };
    started = await start(db, dataDir, env);
    expect(started.lines).toEqual([`Admin ready at ${started.app.url} - sign in as "editor" with the password from ADMIN_PASSWORD`]);
    expect((await login(started.app.url, { email: 'editor@example.org', password: 'a chosen password' })).status).toBe(200);
  });
});
