import { expect, test } from '@playwright/test';
import { API, apiAs, createAccount, expectAccessible, screenshot, signIn, uniqueTag } from './support.ts';

test('navigation from /navigation: groups and entries in order; focus moves to the heading on each route', async ({ page }) => {
  await signIn(page);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link')).toHaveText([
    'Posts',
    'Categories',
    'Products',
    'Storefront',
    'Administrators',
    'Roles',
    'Audit log',
    'Settings',
    'My account',
  ]);
  await nav.getByRole('link', { name: 'Products' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeFocused();
  await expect(nav.getByRole('link', { name: 'Products' })).toHaveAttribute('aria-current', 'page');
  await nav.getByRole('link', { name: 'Posts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeFocused();
  await expect(page).toHaveTitle('Posts');
});

test('the skip link leads to the main content', async ({ page }) => {
  await signIn(page);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#cms-main')).toBeFocused();
});

test('the dashboard has a tile per navigation entry', async ({ page }) => {
  await signIn(page);
  await expect(page.locator('.cms-tile')).toHaveCount(7);
  await page.locator('.cms-tile', { hasText: 'Categories' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Categories' })).toBeVisible();
});

test('an unknown route is the 404 screen; a missing application file is a 404, never the shell', async ({ page }) => {
  await signIn(page, '/backend/no/such/page/here');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await page.goto('/backend/acme/catalog/nothing');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  const missing = await page.request.get('/backend/assets/_ui/assets/missing-abc123.js');
  expect(missing.status()).toBe(404);
  expect(await missing.text()).not.toContain('<html');
});

test('navigation is filtered by permissions, and a refused controller is the 403 screen', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('w');
  const role = await api.post(`${API}/cms/backend/roles`, {
    data: { code: tag, name: tag, permissions: { 'cms.journal.access_posts': 1 } },
  });
  expect(role.status()).toBe(201);
  const writer = await createAccount(api, 'writer', { role: (await role.json()).data.id });
  await signIn(page, '/backend', writer);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  // The "Settings and account" group (settings, own account) is every admin's.
  await expect(nav.getByRole('link')).toHaveText(['Posts', 'Settings', 'My account']);
  await page.goto('/backend/acme/catalog/products');
  await expect(page.getByRole('heading', { level: 1, name: 'Not allowed' })).toBeVisible();
  await api.dispose();
});

test('theme and language switch at once and stay for the next visit', async ({ page }) => {
  const api = await apiAs();
  await signIn(page, '/backend', await createAccount(api, 'pref'));
  await page.locator('.cms-account summary').click();
  const saved = () => page.waitForResponse((r) => r.url().endsWith('/account/preferences') && r.request().method() === 'PUT');
  await Promise.all([saved(), page.getByRole('radio', { name: 'Dark' }).check()]);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await Promise.all([saved(), page.getByLabel('Language').selectOption('de')]);
  await expect(page.getByRole('heading', { level: 1, name: 'Übersicht' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  // The navigation's labels follow at once too.
  await expect(page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Beiträge' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Übersicht' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await api.dispose();
});

test('a right-to-left locale mirrors the layout (logical properties) and passes axe', async ({ page }) => {
  const api = await apiAs();
  await signIn(page, '/backend/acme/catalog/products', await createAccount(api, 'rtl'));
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  const main = page.locator('main');
  expect((await nav.boundingBox())!.x).toBeLessThan((await main.boundingBox())!.x);
  await page.locator('.cms-account summary').click();
  await page.getByLabel('Language').selectOption('ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.locator('.cms-account summary').click();
  expect((await nav.boundingBox())!.x).toBeGreaterThan((await main.boundingBox())!.x);
  const firstCell = page.locator('table.cms-table tbody tr').first().locator('td').nth(1);
  const lastCell = page.locator('table.cms-table tbody tr').first().locator('td').last();
  expect((await firstCell.boundingBox())!.x).toBeGreaterThan((await lastCell.boundingBox())!.x);
  await expectAccessible(page);
  await screenshot(page, 'products-rtl');
  await api.dispose();
});

test('`/lang` answers an ETag and a 304 for it', async ({ request }) => {
  const first = await request.get(`${API}/lang?locale=en`);
  const etag = first.headers().etag;
  expect(etag).toBeTruthy();
  const again = await request.get(`${API}/lang?locale=en`, { headers: { 'If-None-Match': etag! } });
  expect(again.status()).toBe(304);
});

for (const theme of ['light', 'dark'] as const) {
  test(`axe: every screen of part 1 in the ${theme} theme`, async ({ page }) => {
    // Seven full axe runs: slow on a busy machine.
    test.slow();
    await page.emulateMedia({ colorScheme: theme });
    await page.goto('/backend');
    await expect(page.getByRole('heading', { name: 'Sign in to the admin' })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, `login-${theme}`);
    await page.getByLabel('Login or email').fill('nobody-at-all');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expectAccessible(page);
    await signIn(page);
    await expectAccessible(page);
    await screenshot(page, `dashboard-${theme}`);
    for (const [path, name] of [
      ['/backend/cms/journal/posts', 'posts'],
      ['/backend/acme/catalog/products', 'products'],
    ] as const) {
      await page.goto(path);
      await expect(page.locator('table.cms-table tbody tr').first()).toBeVisible();
      await expectAccessible(page);
      await screenshot(page, `${name}-${theme}`);
    }
    await page.locator('details.cms-filter summary').first().click();
    await page
      .getByRole('checkbox', { name: /^Select row/ })
      .first()
      .check();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, `bulk-confirm-${theme}`);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.goto('/backend/acme/catalog/products?search=zzzz-nothing');
    await expect(page.getByText('Nothing matches your search.')).toBeVisible();
    await expectAccessible(page);
    await page.goto('/backend/nowhere/at/all');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, `not-found-${theme}`);
  });
}

test.describe('in German', () => {
  test.use({ locale: 'de-DE', viewport: { width: 320, height: 640 } });

  test('axe: German and a 320 px wide screen', async ({ page }) => {
    await page.goto('/backend');
    await expect(page.getByRole('heading', { name: 'Bei der Verwaltung anmelden' })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'login-de-320');
    await signIn(page, '/backend/cms/journal/posts');
    await expect(page.locator('table.cms-table tbody tr').first()).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'posts-320');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(320);
  });

  test('axe: German in both themes on a wide screen (dashboard, list, selection, 404)', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.goto('/backend');
      await expect(page.getByRole('heading', { level: 1, name: 'Übersicht' })).toBeVisible();
      await expectAccessible(page);
      await screenshot(page, `dashboard-de-${theme}`);
      await page.goto('/backend/acme/catalog/products');
      await expect(page.locator('table.cms-table tbody tr').first()).toBeVisible();
      await page
        .getByRole('checkbox', { name: /^Zeile \d+ auswählen$/ })
        .first()
        .check();
      await expect(page.getByText('1 ausgewählt')).toBeVisible();
      await expectAccessible(page);
      await screenshot(page, `products-de-${theme}`);
      await page.goto('/backend/nirgends/zu/finden');
      await expect(page.getByRole('heading', { level: 1, name: 'Seite nicht gefunden' })).toBeVisible();
      await expectAccessible(page);
    }
  });
});
