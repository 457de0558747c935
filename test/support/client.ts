import { expect } from 'vitest';
import type { Test } from 'supertest';
import type { PermissionMap } from '@cms/admin-core';
import { API, type TestAdmin } from './app.ts';

/** A signed-in client of the admin API: paths are relative to `{prefix}/api/v1/`. */
export interface Client {
  id: number;
  token: string;
  get(path: string, query?: Record<string, unknown>): Test;
  post(path: string, body?: unknown): Test;
  put(path: string, body?: unknown): Test;
  delete(path: string): Test;
  /** The same admin asking in another locale. */
  locale(locale: string): Client;
}

export function clientFor(t: TestAdmin, id: number, token: string, locale = 'en'): Client {
  const auth = (request: Test) => request.set('Authorization', `Bearer ${token}`).set('Accept-Language', locale);
  return {
    id,
    token,
    get: (path, query) => auth(t.http.get(`${API}/${path}`)).query(query ?? {}),
    post: (path, body) => auth(t.http.post(`${API}/${path}`)).send(body as object),
    put: (path, body) => auth(t.http.put(`${API}/${path}`)).send(body as object),
    delete: (path) => auth(t.http.delete(`${API}/${path}`)),
    locale: (other) => clientFor(t, id, token, other),
  };
}

/** A new admin with a fresh bearer token (issued directly: no password hashing per client). */
export async function signIn(
  t: TestAdmin,
  options: { isSuperuser?: boolean; permissions?: PermissionMap; roleId?: number | null; login?: string } = {},
): Promise<Client> {
  const admin = await t.createAdmin(options);
  const { token } = await t.core.auth.issue(admin.id, 'bearer');
  return clientFor(t, admin.id, token);
}

/** Every row of each table, ordered, as one comparable value: "no row changed" is equality. */
export async function snapshot(t: TestAdmin, tables: readonly string[]): Promise<Record<string, unknown[]>> {
  const result: Record<string, unknown[]> = {};
  for (const table of tables) result[table] = await t.sql(`select * from ${table} order by 1, 2`);
  return result;
}

/** A 422 whose `details` name exactly these keys. */
export function expect422(
  res: { status: number; body: { error?: { code: string; details: Record<string, string[]> } } },
  keys: string[],
  code = 'validation_failed',
) {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.error!.code).toBe(code);
  expect(Object.keys(res.body.error!.details).sort()).toEqual([...keys].sort());
  for (const messages of Object.values(res.body.error!.details)) {
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(message).not.toMatch(/::/);
  }
}

export const ADMINS = 'cms/backend/admins';
export const ROLES = 'cms/backend/roles';
