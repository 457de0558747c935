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

/**
 * Tabs through the page from its start and checks that every element taking the focus shows it
 * (docs/admin-ui.md, "Tests"): an outline of at least 2 px that is not transparent, or a box
 * shadow. Stops when the focus comes back to an element it saw. Answers how many it checked.
 */
export async function expectFocusIndicators(page: Page, maxTabs = 80): Promise<number> {
  await page.evaluate(() => {
    for (const element of Array.from(document.querySelectorAll('[data-focus-probe]'))) element.removeAttribute('data-focus-probe');
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  const missing: string[] = [];
  let seen = 0;
  for (let i = 0; i < maxTabs; i++) {
    await page.keyboard.press('Tab');
    const found = await page.evaluate((n) => {
      let element = document.activeElement as HTMLElement | null;
      while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement as HTMLElement;
      if (!element || element === document.body) return undefined;
      if (element.dataset.focusProbe) return 'again';
      element.dataset.focusProbe = String(n);
      const style = getComputedStyle(element);
      const transparent = /rgba\(.*,\s*0\)$|transparent/.test(style.outlineColor);
      const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2 && !transparent;
      const shadow = style.boxShadow !== 'none';
      const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.className && typeof element.className === 'string' ? `.${element.className.split(' ').join('.')}` : ''} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 30)}"`;
      return outline || shadow ? '' : name;
    }, i);
    if (found === undefined) continue;
    if (found === 'again') break;
    seen++;
    if (found) missing.push(found);
  }
  expect(missing, 'elements without a visible focus indicator').toEqual([]);
  return seen;
}

/** With `prefers-reduced-motion: reduce`: nothing on the page moves (no transition, no animation running). */
export async function expectNoMotion(page: Page): Promise<void> {
  const moving = await page.evaluate(() => {
    const found: string[] = [];
    for (const element of Array.from(document.querySelectorAll('*'))) {
      const style = getComputedStyle(element);
      const durations = [...style.transitionDuration.split(','), ...style.animationDuration.split(',')].map(
        (d) => Number.parseFloat(d) || 0,
      );
      if ((style.animationName !== 'none' || style.transitionProperty !== 'none') && durations.some((d) => d > 0))
        found.push(`${element.tagName.toLowerCase()}.${String(element.className)}`);
    }
    return [...found, ...document.getAnimations().map((animation) => `animation ${animation.id || animation.constructor.name}`)];
  });
  expect(moving).toEqual([]);
}
