import { type APIRequestContext, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { API, apiAs, createAccount, createProducts, screenshot, signIn, uniqueTag } from './support.ts';

/**
 * Another admin on the same browser (docs/admin-ui.md, "Another admin on the same browser"): every
 * tab follows the admin signed in now, nothing typed for one admin is sent under another's
 * session, a waiting request is replayed only for the same admin, and drafts past their day are
 * swept and never offered to another admin.
 */

const PRODUCTS = '/backend/acme/catalog/products';
const DRAFTS = 'cms-admin:draft:';
type Account = { login: string; password: string };

let api: APIRequestContext;
let first: Account;
let second: Account;
let firstId: number;
let secondId: number;

test.beforeAll(async () => {
  api = await apiAs();
  // Logins that sort after `admin`: the author combobox of choice.spec.ts shows the first 20 admins by name.
  first = await createAccount(api, 'tabsa');
  second = await createAccount(api, 'tabsb');
  const ids = async (login: string) => {
    const answer = await api.get(`${API}/cms/backend/admins`, { params: { search: login } });
    return ((await answer.json()).data as { id: number; login: string }[]).find((row) => row.login === login)!.id;
  };
  firstId = await ids(first.login);
  secondId = await ids(second.login);
});

test.afterAll(async () => {
  await api.dispose();
});

const productName = async (id: number) => (await (await api.get(`${API}/acme/catalog/products/${id}`)).json()).data.name as string;
const accountName = (page: Page) => page.locator('.cms-account summary > span:not(.cms-avatar)');
const draftKeys = (page: Page) =>
  page.evaluate(
    (prefix) =>
      Object.keys(localStorage)
        .filter((key) => key.startsWith(prefix))
        .sort(),
    DRAFTS,
  );
const draftOf = (admin: number, id: number) => `${DRAFTS}${admin}:acme/catalog/products:${id}`;

/** Every write of the browser to the product's route (the saves that left the tab). */
function saves(context: BrowserContext, id: number): string[] {
  const sent: string[] = [];
  context.on('request', (request) => {
    if (request.method() === 'PUT' && new URL(request.url()).pathname === `${API}/acme/catalog/products/${id}`) sent.push(request.method());
  });
  return sent;
}

/** The sign-in dialog over a screen whose session ended, answered by keyboard only. */
async function signInByKeyboard(page: Page, account: Account): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Your session has ended' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Login or email')).toBeFocused();
  await page.keyboard.type(account.login);
  await page.keyboard.press('Tab');
  await page.keyboard.type(account.password);
  await page.keyboard.press('Enter');
}

test('a tab follows the admin signed in in another tab: the same admin keeps the screen, another resets it to their shell', async ({
  context,
}) => {
  const tag = uniqueTag('tab');
  const [id] = await createProducts(api, tag, 1);
  const sent = saves(context, id!);
  const tab = await context.newPage();
  await signIn(tab, `${PRODUCTS}/update/${id}`, first);
  await expect(accountName(tab)).toHaveText(first.login);
  await tab.getByLabel('Name').fill(`${tag} typed by A`);
  // The session ends (expired, revoked); another tab of the browser signs in again as the same admin.
  await context.clearCookies();
  const other = await context.newPage();
  await signIn(other, '/backend', first);
  await expect(tab.getByLabel('Name')).toHaveValue(`${tag} typed by A`);
  await expect(tab).toHaveURL(new RegExp(`/update/${id}$`));
  // Then a second admin signs in there.
  await context.clearCookies();
  await other.reload();
  await signIn(other, '/backend', second);
  await expect(accountName(tab)).toHaveText(second.login);
  await expect(tab).toHaveURL(/\/backend$/);
  await expect(tab.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(tab.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Products' })).toBeVisible();
  await screenshot(tab, 'admin-changed-tab');
  // What A typed stays under A's key, is never sent, and B is not offered it.
  expect(await draftKeys(tab)).toEqual([draftOf(firstId, id!)]);
  expect(sent).toEqual([]);
  expect(await productName(id!)).toBe(`${tag} 1`);
  await tab.goto(`${PRODUCTS}/update/${id}`);
  await expect(tab.getByLabel('Name')).toHaveValue(`${tag} 1`);
  await expect(tab.getByText(/unsaved changes from/)).toHaveCount(0);
});

test('a save waiting for the sign-in dialog is dropped when another admin signs in, and the tab resets to them (keyboard)', async ({
  page,
  context,
}) => {
  const tag = uniqueTag('wait');
  const [id] = await createProducts(api, tag, 1);
  const sent = saves(context, id!);
  await signIn(page, `${PRODUCTS}/update/${id}`, first);
  await page.getByLabel('Name').fill(`${tag} typed by A`);
  // The form has read everything it reads (its relation list, its files): the save is what meets the ended session.
  await page.waitForLoadState('networkidle');
  await context.clearCookies();
  await page.getByLabel('Name').press('Control+s');
  await signInByKeyboard(page, second);
  await expect(accountName(page)).toHaveText(second.login);
  await expect(page).toHaveURL(/\/backend$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeFocused();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await screenshot(page, 'admin-changed-dialog');
  // The save went once, met the ended session, and was not replayed under B's.
  expect(sent).toEqual(['PUT']);
  expect(await productName(id!)).toBe(`${tag} 1`);
  // Nor is there any write by B on it in the audit log.
  const audit = await api.get(`${API}/cms/backend/audit`, { params: { search: second.login, per_page: 100 } });
  expect(audit.status()).toBe(200);
  const rows = (await audit.json()).data as { record_id: unknown; target: unknown }[];
  expect(rows.filter((row) => String(row.record_id) === String(id) && String(row.target).includes('product'))).toEqual([]);
  expect(await draftKeys(page)).toEqual([draftOf(firstId, id!)]);
});

test('a save waiting for the sign-in dialog is replayed when the same admin signs in (keyboard)', async ({ page, context }) => {
  const tag = uniqueTag('same');
  const [id] = await createProducts(api, tag, 1);
  const sent = saves(context, id!);
  await signIn(page, `${PRODUCTS}/update/${id}`, first);
  await page.getByLabel('Name').fill(`${tag} kept`);
  await page.waitForLoadState('networkidle');
  await context.clearCookies();
  await page.getByLabel('Name').press('Control+s');
  await signInByKeyboard(page, first);
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/update/${id}$`));
  expect(sent).toEqual(['PUT', 'PUT']);
  expect(await productName(id!)).toBe(`${tag} kept`);
});

test('a tab that missed the news sends nothing for its admin once another is signed in: it resets', async ({ page, context }) => {
  const tag = uniqueTag('miss');
  const [id] = await createProducts(api, tag, 1);
  const sent = saves(context, id!);
  // This tab has no channel and drops storage events, as a tab that was asleep.
  await page.addInitScript(() => {
    (window as { BroadcastChannel?: unknown }).BroadcastChannel = undefined;
    window.addEventListener('storage', (event) => event.stopImmediatePropagation(), { capture: true });
  });
  await signIn(page, `${PRODUCTS}/update/${id}`, first);
  await page.getByLabel('Name').fill(`${tag} typed by A`);
  // Another admin signs in on this browser, and this tab hears nothing of it.
  const other = await context.newPage();
  await context.clearCookies();
  await signIn(other, '/backend', second);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(accountName(page)).toHaveText(second.login);
  await expect(page).toHaveURL(/\/backend$/);
  expect(sent).toEqual([]);
  expect(await productName(id!)).toBe(`${tag} 1`);
});

test('drafts past their day are swept when a page starts; another admin is never offered a draft', async ({ page }) => {
  const tag = uniqueTag('swp');
  const [id] = await createProducts(api, tag, 1);
  await page.goto('/backend/login');
  const now = Date.now();
  await page.evaluate(
    ({ fresh, old, gone, now }) => {
      const draft = (savedAt: number) =>
        JSON.stringify({ savedAt, values: { name: 'typed by A' }, base: {}, etag: undefined, sessionKey: 'k', pending: [] });
      localStorage.setItem(fresh, draft(now - 60_000));
      localStorage.setItem(old, draft(now - 2 * 24 * 60 * 60 * 1000));
      localStorage.setItem(gone, '{not json');
    },
    { fresh: draftOf(firstId, id!), old: draftOf(firstId, 999_999), gone: draftOf(secondId, 999_998), now },
  );
  await signIn(page, '/backend', second);
  // A's draft within its day stays for A; the one past its day and the unreadable one are gone.
  expect(await draftKeys(page)).toEqual([draftOf(firstId, id!)]);
  await page.goto(`${PRODUCTS}/update/${id}`);
  await expect(page.getByLabel('Name')).toHaveValue(`${tag} 1`);
  await expect(page.getByText(/unsaved changes from/)).toHaveCount(0);
  expect(await draftKeys(page)).toEqual([draftOf(firstId, id!)]);
});
