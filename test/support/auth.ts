import { expect } from 'vitest';
import type { Response } from 'supertest';
import { API, type SeededAdmin, type TestAdmin } from './app.ts';

export const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

/** The `Set-Cookie` values of an answer, as a list. */
export function setCookies(response: Response): string[] {
  const header = response.headers['set-cookie'] as string[] | string | undefined;
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
}

/** The single `cms_admin` cookie of an answer, split into its value and attributes. */
export function sessionCookie(response: Response): { value: string; attributes: string[]; raw: string } {
  // The admin's own comes first; plugin routes outside the prefix get the same cookie under their
  // own path after it (docs/auth.md, "The cookie"), never another value.
  const cookies = setCookies(response).filter((c) => c.startsWith('cms_admin='));
  expect(cookies.length).toBeGreaterThanOrEqual(1);
  expect(new Set(cookies.map((c) => c.split(';')[0])).size).toBe(1);
  const [pair, ...attributes] = cookies[0]!.split(';').map((part) => part.trim());
  return { value: decodeURIComponent(pair!.slice('cms_admin='.length)), attributes, raw: cookies[0]! };
}

/** Asserts that an answer expires the session cookie. */
export function expectCookieExpired(response: Response) {
  const cookie = sessionCookie(response);
  expect(cookie.value).toBe('');
  expect(cookie.attributes).toContain('Max-Age=0');
}

/** Asserts the error envelope: exactly `{error:{code,message,details}}`. */
export function expectError(response: Response, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(Object.keys(response.body)).toEqual(['error']);
  expect(response.body.error.code).toBe(code);
  expect(typeof response.body.error.message).toBe('string');
  expect(response.body.error.message.length).toBeGreaterThan(0);
  expect(typeof response.body.error.details).toBe('object');
}

/** Logs in over the cookie transport and answers the raw cookie value. */
export async function cookieLogin(t: TestAdmin, admin: SeededAdmin): Promise<string> {
  const response = await t.http.post(`${API}/auth/login`).set(XHR).send({ login: admin.login, password: admin.password });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return sessionCookie(response).value;
}

export const cookieHeader = (value: string) => `cms_admin=${encodeURIComponent(value)}`;

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Flips one character in the middle of the longest segment of a sealed token. */
export function tamper(token: string): string {
  const segments = token.split('*');
  let longest = 0;
  segments.forEach((segment, index) => {
    if (segment.length > segments[longest]!.length) longest = index;
  });
  const segment = segments[longest]!;
  const at = Math.floor(segment.length / 2);
  const flipped = segment[at] === 'A' ? 'B' : 'A';
  segments[longest] = segment.slice(0, at) + flipped + segment.slice(at + 1);
  return segments.join('*');
}
