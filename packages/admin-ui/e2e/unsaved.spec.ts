import { type Browser, expect, type Page, test } from '@playwright/test';
import { ADMIN, API, apiAs, createProducts, expectAccessible, screenshot, signIn, uniqueTag } from './support.ts';

/**
 * Edits are never lost (docs/admin-ui.md, "Edits are never lost"): one guard on every way out of
 * a changed form, drafts in local storage, and the three-way merge when two admins save one record.
 */

const PRODUCTS = '/backend/acme/catalog/products';
const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true });
const leave = (page: Page) => page.getByRole('dialog', { name: 'Leave without saving?' });

test.afterEach(async ({ page, context }) => {
  if (!page.isClosed()) await page.unrouteAll({ behavior: 'ignoreErrors' });
  await context.unrouteAll({ behavior: 'ignoreErrors' });
});

async function product(tag: string): Promise<number> {
  const api = await apiAs();
  const [id] = await createProducts(api, tag, 1);
  await api.dispose();
  return id!;
}

test('an in-app link asks first: Stay keeps the edit, Discard leaves; typing and undoing asks nothing', async ({ page }) => {
  const tag = uniqueTag('lnk');
  const id = await product(tag);
  await signIn(page, `${PRODUCTS}/update/${id}`);
  const name = page.getByLabel('Name');
  await name.fill(`${tag} changed`);
  await name.fill(`${tag} 1`);
  await expect(page.getByText('Unsaved changes')).toHaveCount(0);
  await name.fill(`${tag} changed`);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('link', { name: 'Posts' }).click();
  await expect(leave(page)).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'form-leave');
  await leave(page).getByRole('button', { name: 'Stay' }).click();
  await expect(name).toHaveValue(`${tag} changed`);
  await expect(page).toHaveURL(new RegExp(`/update/${id}$`));
  // Esc is "Stay" too.
  await nav.getByRole('link', { name: 'Posts' }).click();
  await page.keyboard.press('Escape');
  await expect(leave(page)).toBeHidden();
  await expect(name).toHaveValue(`${tag} changed`);
  await nav.getByRole('link', { name: 'Posts' }).click();
  await leave(page).getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
});

test('the leave dialog’s Save saves, then goes', async ({ page }) => {
  const tag = uniqueTag('lvs');
  const id = await product(tag);
  await signIn(page, `${PRODUCTS}/update/${id}`);
  await page.getByLabel('Name').fill(`${tag} saved on the way out`);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Posts' }).click();
  await leave(page).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
  const api = await apiAs();
  expect((await (await api.get(`${API}/acme/catalog/products/${id}`)).json()).data.name).toBe(`${tag} saved on the way out`);
  await api.dispose();
});

test('Back and Forward ask first and keep the URL of the form while asking', async ({ page }) => {
  const tag = uniqueTag('bck');
  const id = await product(tag);
  await signIn(page, `${PRODUCTS}?search=${tag}`);
  await page.getByRole('link', { name: `${tag} 1` }).click();
  await expect(page).toHaveURL(new RegExp(`/update/${id}$`));
  await page.getByLabel('Name').fill(`${tag} changed`);
  await page.goBack();
  await expect(leave(page)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/update/${id}$`));
  await leave(page).getByRole('button', { name: 'Stay' }).click();
  await expect(page.getByLabel('Name')).toHaveValue(`${tag} changed`);
  await page.goBack();
  await leave(page).getByRole('button', { name: 'Discard changes' }).click();
  await expect(page).toHaveURL(new RegExp(`${PRODUCTS}\\?search=${tag}$`));
  await expect(page.getByRole('link', { name: `${tag} 1` })).toBeVisible();
});

test('reload and closing the tab ask the browser’s question while the form holds changes, and only then', async ({ page }) => {
  const tag = uniqueTag('unl');
  const id = await product(tag);
  await signIn(page, `${PRODUCTS}/update/${id}`);
  await page.getByLabel('Name').fill(`${tag} changed`);
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.dismiss();
    }),
  );
  await page.close({ runBeforeUnload: true });
  expect(await asked).toBe('beforeunload');
  expect(page.isClosed()).toBe(false);
  await expect(page.getByLabel('Name')).toHaveValue(`${tag} changed`);
  // Saved: nothing to ask.
  await save(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  let again = false;
  page.once('dialog', (dialog) => {
    again = true;
    void dialog.accept();
  });
  await page.reload();
  await expect(page.getByLabel('Name')).toHaveValue(`${tag} changed`);
  expect(again).toBe(false);
});

test('signing out asks first', async ({ page }) => {
  const tag = uniqueTag('out');
  const id = await product(tag);
  await signIn(page, `${PRODUCTS}/update/${id}`);
  await page.getByLabel('Name').fill(`${tag} changed`);
  await page.locator('details.cms-account summary').click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await leave(page).getByRole('button', { name: 'Stay' }).click();
  await expect(page.getByLabel('Name')).toHaveValue(`${tag} changed`);
  // The account menu is still open.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await leave(page).getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to the admin' })).toBeVisible();
});

test('a session that ends while editing: the sign-in dialog opens over the form, the save goes through after it', async ({
  page,
  context,
}) => {
  const tag = uniqueTag('exp');
  const id = await product(tag);
  await signIn(page, `${PRODUCTS}/update/${id}`);
  await page.getByLabel('Name').fill(`${tag} kept`);
  await context.clearCookies();
  await save(page).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Your session has ended' })).toBeVisible();
  await dialog.getByLabel('Login or email').fill(ADMIN.login);
  await dialog.getByLabel('Password').fill(ADMIN.password);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue(`${tag} kept`);
  const api = await apiAs();
  expect((await (await api.get(`${API}/acme/catalog/products/${id}`)).json()).data.name).toBe(`${tag} kept`);
  await api.dispose();
});

test('draft recovery: after a reload, and after the tab was closed, the form offers what was typed', async ({ page, context }) => {
  const tag = uniqueTag('drf');
  const id = await product(tag);
  await signIn(page, `${PRODUCTS}/update/${id}`);
  await page.getByLabel('Name').fill(`${tag} drafted`);
  await page.getByLabel('SKU').fill(`${tag}-draft`.toUpperCase());
  // The draft is written within two seconds of a change.
  await expect.poll(() => page.evaluate(() => Object.keys(localStorage).some((key) => key.startsWith('cms-admin:draft:')))).toBe(true);
  page.on('dialog', (dialog) => void dialog.accept());
  await page.reload();
  await expect(page.getByText(/unsaved changes from .* kept in this browser/)).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue(`${tag} 1`);
  await page.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByLabel('Name')).toHaveValue(`${tag} drafted`);
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  // Closed without saving: a new tab of the same browser finds it again.
  await expect.poll(() => page.evaluate(() => Object.keys(localStorage).some((key) => key.startsWith('cms-admin:draft:')))).toBe(true);
  await page.close();
  const again = await context.newPage();
  await again.goto(`${PRODUCTS}/update/${id}`);
  await again.getByRole('button', { name: 'Restore' }).click();
  await expect(again.getByLabel('SKU')).toHaveValue(`${tag}-draft`.toUpperCase());
  await again.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(again.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  expect(await again.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('cms-admin:draft:')))).toEqual([]);
  // Passwords never reach the storage.
  await again.goto('/backend/cms/backend/admins/update/1');
  await again.getByLabel('Password', { exact: true }).fill('secret-never-stored');
  await again.getByLabel('First name').fill('Drafted');
  await expect.poll(() => again.evaluate(() => Object.keys(localStorage).some((key) => key.startsWith('cms-admin:draft:')))).toBe(true);
  const stored = await again.evaluate(() =>
    Object.entries(localStorage)
      .filter(([key]) => key.startsWith('cms-admin:draft:'))
      .map(([, value]) => value)
      .join(''),
  );
  expect(stored).not.toContain('secret-never-stored');
  expect(stored).toContain('Drafted');
});

async function signedInPage(browser: Browser, path: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, path);
  return page;
}

test('two admins on one product: theirs-only fields merge silently; a field both changed is chosen side by side', async ({ browser }) => {
  const tag = uniqueTag('mrg');
  const id = await product(tag);
  const path = `${PRODUCTS}/update/${id}`;
  const a = await signedInPage(browser, path);
  const b = await signedInPage(browser, path);
  // A renames and saves; B changes the SKU from the old version.
  await a.getByLabel('Name').fill(`${tag} by A`);
  await save(a).click();
  await expect(a.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await b.getByLabel('SKU').fill(`${tag}-B`.toUpperCase());
  await save(b).click();
  await expect(b.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(b.getByLabel('Name')).toHaveValue(`${tag} by A`);
  await expect(b.getByText(/Taken over from the other save: Name/)).toBeVisible();
  const api = await apiAs();
  const read = async () => (await (await api.get(`${API}/acme/catalog/products/${id}`)).json()).data;
  expect(await read()).toMatchObject({ name: `${tag} by A`, sku: `${tag}-B`.toUpperCase() });
  // Both change the price: B sees both values and keeps its own.
  await a.reload();
  await a.getByLabel('Price').fill('11.00');
  await save(a).click();
  await expect(a.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await b.getByLabel('Price').fill('22.00');
  await save(b).click();
  const panel = b.locator('.cms-conflicts');
  await expect(panel).toBeFocused();
  await expect(panel.getByRole('row', { name: /Price/ })).toContainText('22.00');
  await expect(panel.getByRole('row', { name: /Price/ })).toContainText('11.00');
  await expectAccessible(b);
  await screenshot(b, 'form-conflict');
  await panel.getByRole('button', { name: 'Keep mine: Price' }).click();
  await expect(panel).toBeHidden();
  await save(b).click();
  await expect(b.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  expect((await read()).price).toBe('22.00');
  await api.dispose();
  await a.context().close();
  await b.context().close();
});

/** In the page: the tab goes to the background, a minute and more passes, and it comes back. */
function awayForAMinute(): void {
  const state = (value: string) => Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => value });
  state('hidden');
  document.dispatchEvent(new Event('visibilitychange'));
  const now = Date.now.bind(Date);
  Date.now = () => now() + 61_000;
  state('visible');
  document.dispatchEvent(new Event('visibilitychange'));
}

test('a form back in the foreground after a minute reads the record again: quietly when unchanged, with a banner when changed', async ({
  page,
}) => {
  const tag = uniqueTag('vis');
  const id = await product(tag);
  const api = await apiAs();
  await signIn(page, `${PRODUCTS}/update/${id}`);
  await expect(page.getByLabel('Name')).toHaveValue(`${tag} 1`);
  await api.put(`${API}/acme/catalog/products/${id}`, { data: { name: `${tag} elsewhere` } });
  await page.evaluate(awayForAMinute);
  await expect(page.getByLabel('Name')).toHaveValue(`${tag} elsewhere`);
  await expect(page.locator('.cms-status')).toContainText('changed elsewhere');
  // With a change of its own, the form says so and merges on request.
  await page.getByLabel('SKU').fill(`${tag}-mine`.toUpperCase());
  await api.put(`${API}/acme/catalog/products/${id}`, { data: { name: `${tag} again` } });
  await page.evaluate(awayForAMinute);
  await expect(page.getByText('Someone else changed this record since you opened it.')).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue(`${tag} elsewhere`);
  await page.getByRole('button', { name: 'Review the changes' }).click();
  await expect(page.getByLabel('Name')).toHaveValue(`${tag} again`);
  await expect(page.getByLabel('SKU')).toHaveValue(`${tag}-mine`.toUpperCase());
  await save(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  expect((await (await api.get(`${API}/acme/catalog/products/${id}`)).json()).data).toMatchObject({
    name: `${tag} again`,
    sku: `${tag}-mine`.toUpperCase(),
  });
  await api.dispose();
});
