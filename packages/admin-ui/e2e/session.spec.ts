import { expect, test } from '@playwright/test';
import { API, signIn } from './support.ts';

const PRODUCTS = '/backend/acme/catalog/products';
const isList = (url: string) => new URL(url).pathname === `${API}/acme/catalog/products`;

// A route still answering when its test ends is dropped, not reported (the page is closed anyway).
test.afterEach(async ({ page, context }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await context.unrouteAll({ behavior: 'ignoreErrors' });
});

test('a 401 triggers one refresh and one replay, and the admin sees nothing of it', async ({ page }) => {
  await signIn(page, PRODUCTS);
  const refreshes: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/auth/refresh')) refreshes.push(request.method());
  });
  let refused = 0;
  await page.route(
    (url) => isList(url.href),
    async (route) => {
      // The first list request meets an expired access token.
      if (refused++ === 0) return route.fulfill({ status: 401, json: { error: { code: 'unauthenticated', message: 'x', details: {} } } });
      return route.continue();
    },
  );
  await page.getByRole('searchbox', { name: 'Search' }).fill('lamp');
  await expect(page.locator('table.cms-table tbody tr')).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Desk lamp' })).toBeVisible();
  expect(refreshes).toEqual(['POST']);
  expect(refused).toBe(2);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('two tabs meeting a 401 at once refresh the session once', async ({ context }) => {
  const first = await context.newPage();
  await signIn(first, PRODUCTS);
  const second = await context.newPage();
  await second.goto(PRODUCTS);
  await expect(second.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
  let refreshes = 0;
  context.on('request', (request) => {
    if (request.url().endsWith('/auth/refresh')) refreshes++;
  });
  const refusedPages = new Set<string>();
  await context.route(
    (url) => isList(url.href) && url.searchParams.get('search') === 'lamp',
    async (route, request) => {
      const tab = request.frame().page() === first ? 'first' : 'second';
      if (!refusedPages.has(tab)) {
        refusedPages.add(tab);
        return route.fulfill({ status: 401, json: { error: { code: 'unauthenticated', message: 'x', details: {} } } });
      }
      return route.continue();
    },
  );
  await Promise.all([
    first.getByRole('searchbox', { name: 'Search' }).fill('lamp'),
    second.getByRole('searchbox', { name: 'Search' }).fill('lamp'),
  ]);
  for (const tab of [first, second]) {
    await expect(tab.locator('table.cms-table tbody tr')).toHaveCount(1);
    await expect(tab.getByRole('link', { name: 'Desk lamp' })).toBeVisible();
  }
  expect(refusedPages.size).toBe(2);
  expect(refreshes).toBe(1);
});

test('the session is refreshed before it expires', async ({ page }) => {
  await page.clock.install();
  await signIn(page, PRODUCTS);
  const refreshed = page.waitForRequest((request) => request.url().endsWith('/auth/refresh') && request.method() === 'POST');
  // 80% of the example app's 3600 s.
  await page.clock.fastForward('48:30');
  const response = await (await refreshed).response();
  expect(response?.status()).toBe(200);
});

test('a network failure, a 5xx and a malformed answer show a message with a retry, never a blank screen', async ({ page }) => {
  await signIn(page, PRODUCTS);
  await expect(page.getByRole('link', { name: 'Desk lamp' })).toBeVisible();
  let mode: 'abort' | '500' | 'html' | 'pass' = 'abort';
  await page.route(
    (url) => isList(url.href),
    async (route) => {
      if (mode === 'abort') return route.abort('connectionrefused');
      if (mode === '500')
        return route.fulfill({
          status: 500,
          headers: { 'X-Request-Id': 'req-123' },
          json: { error: { code: 'internal', message: 'Something went wrong on our side. The request id is req-123.', details: {} } },
        });
      if (mode === 'html') return route.fulfill({ status: 200, contentType: 'text/html', body: '<html>proxy error</html>' });
      return route.continue();
    },
  );
  const search = page.getByRole('searchbox', { name: 'Search' });
  const alert = page.getByRole('alert');
  await search.fill('lamp');
  await expect(alert).toContainText('The admin could not be reached.');
  mode = '500';
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(alert).toContainText('The request id is req-123.');
  await expect(alert).toContainText('Reference: req-123');
  mode = 'html';
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(alert).toContainText('The admin could not be reached.');
  mode = 'pass';
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(page.locator('table.cms-table tbody tr')).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Desk lamp' })).toBeVisible();
  await expect(alert).toHaveCount(0);
});

test('a deploy under an open tab offers a reload', async ({ page }) => {
  await signIn(page, PRODUCTS);
  await page.route(
    (url) => isList(url.href),
    async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'x-admin-version': 'a-newer-build' } });
    },
  );
  await page.getByRole('searchbox', { name: 'Search' }).fill('lamp');
  const banner = page.getByRole('status').filter({ hasText: 'A new version of the admin is available.' });
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Reload' })).toBeVisible();
  // The screen underneath goes on working.
  await expect(page.getByRole('link', { name: 'Desk lamp' })).toBeVisible();
});

test('a singleton controller opens its record instead of a list', async ({ page }) => {
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Storefront' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Storefront' })).toBeFocused();
  await expect(page.getByLabel('Shop name')).toHaveValue(/\S/);
});
