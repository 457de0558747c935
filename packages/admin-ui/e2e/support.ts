import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, request as playwrightRequest } from '@playwright/test';

/** The example app's superuser of the test run (playwright.config.ts). */
export const ADMIN = { login: 'admin', password: 'ui-test-password' };
export const API = '/backend/api/v1';

const base = () => `http://127.0.0.1:${process.env.UI_PORT}`;

/** A Bearer-token client of the API for arranging data and checking outcomes (never the browser's cookie). */
export async function apiAs(credentials: { login: string; password: string } = ADMIN): Promise<APIRequestContext> {
  const anonymous = await playwrightRequest.newContext({ baseURL: base() });
  const login = await anonymous.post(`${API}/auth/login`, { data: credentials });
  expect(login.status()).toBe(200);
  const token = (await login.json()).data.access_token as string;
  await anonymous.dispose();
  return playwrightRequest.newContext({ baseURL: base(), extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
}

/** Signs in through the sign-in screen (the cookie transport), optionally starting from a deep link. */
export async function signIn(page: Page, path = '/backend', credentials = ADMIN): Promise<void> {
  await page.goto(path);
  await page.getByLabel(/login or email|benutzername/i).fill(credentials.login);
  await page.getByLabel(/^password$|^passwort$/i).fill(credentials.password);
  await page.getByRole('button', { name: /^sign in$|^anmelden$/i }).click();
  await expect(page.locator('main h1')).toBeVisible();
  await expect(page.locator('.cms-login')).toHaveCount(0);
}

/**
 * A new admin account under a unique login (its preferences are its own, so a test may change
 * them): a superuser, or one with `role`. Answers how to sign in as it.
 */
export async function createAccount(
  api: APIRequestContext,
  prefix: string,
  access: { role: number } | { is_superuser: true } = { is_superuser: true },
): Promise<{ login: string; password: string }> {
  const login = uniqueTag(prefix);
  const password = `${login}-password`;
  const answer = await api.post(`${API}/cms/backend/admins`, { data: { login, email: `${login}@example.com`, password, ...access } });
  expect(answer.status(), await answer.text()).toBe(201);
  return { login, password };
}

/** A tag no other test uses, to find the records a test made. */
export const uniqueTag = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Creates catalog products named `{tag} {n}` (SKU from the tag) and answers their ids. */
export async function createProducts(
  api: APIRequestContext,
  tag: string,
  count: number,
  name = (n: number) => `${tag} ${n}`,
): Promise<number[]> {
  const ids: number[] = [];
  for (let n = 1; n <= count; n++) {
    const answer = await api.post(`${API}/acme/catalog/products`, {
      data: { name: name(n), sku: `${tag}-${n}`.slice(0, 60).toUpperCase(), currency: 'EUR', price: `${n}.50` },
    });
    expect(answer.status(), await answer.text()).toBe(201);
    ids.push((await answer.json()).data.id);
  }
  return ids;
}

/** axe-core on the page as it is: no serious or critical violation (docs/admin-ui.md, "Tests"). */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(
    serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join('; ')})`),
  ).toEqual([]);
}

/** With `pnpm test:ui --screenshots`: the page into `test-results/gallery/` (git-ignored), for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!process.env.UI_SCREENSHOTS) return;
  const dir = join(import.meta.dirname, '..', 'test-results', 'gallery');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
