import { expect, test } from '@playwright/test';
import { ADMIN, API, apiAs, signIn, uniqueTag } from './support.ts';

test('signing in over the cookie transport: no token reaches the page, every API request says X-Requested-With', async ({ page }) => {
  const requests: { url: string; header: string | undefined }[] = [];
  const bodies: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes(`${API}/`)) requests.push({ url: request.url(), header: request.headers()['x-requested-with'] });
  });
  page.on('response', async (response) => {
    if (response.url().includes('/auth/')) bodies.push(await response.text().catch(() => ''));
  });
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  expect(requests.length).toBeGreaterThan(2);
  expect(requests.filter((r) => r.header !== 'XMLHttpRequest')).toEqual([]);
  expect(bodies.join('\n')).not.toContain('access_token');
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
  expect(storage).not.toContain('Fe26');
});

test('a refused login shows the server’s message and signs nobody in', async ({ page }) => {
  await page.goto('/backend');
  await page.getByLabel('Login or email').fill(uniqueTag('nobody'));
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('The login or password is not correct.');
  await expect(page.getByLabel('Password')).toHaveAttribute('autocomplete', 'current-password');
  await expect(page.getByLabel('Login or email')).toHaveAttribute('autocomplete', 'username');
});

test('a throttled login shows the plural wait message', async ({ page }) => {
  const login = uniqueTag('throttled');
  await page.goto('/backend');
  const alert = page.getByRole('alert');
  for (let attempt = 0; attempt < 6; attempt++) {
    await page.getByLabel('Login or email').fill(login);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(alert).toBeVisible();
    if ((await alert.textContent())?.startsWith('Too many attempts')) break;
  }
  await expect(alert).toHaveText(/^Too many attempts\. Try again in \d+ seconds?\.$/);
});

test('keyboard only: sign in with Tab, typing and Enter', async ({ page }) => {
  await page.goto('/backend');
  await expect(page.getByRole('heading', { name: 'Sign in to the admin' })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Login or email')).toBeFocused();
  await page.keyboard.type(ADMIN.login);
  await page.keyboard.press('Tab');
  await page.keyboard.type(ADMIN.password);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeFocused();
});

test('a deep link survives the sign-in, with its list state', async ({ page }) => {
  await page.goto('/backend/acme/catalog/products?search=lamp');
  await expect(page).toHaveURL(/\/backend\/login\?next=/);
  await page.getByLabel('Login or email').fill(ADMIN.login);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/backend\/acme\/catalog\/products\?search=lamp$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('lamp');
});

test('a `next` pointing elsewhere is ignored: no open redirect', async ({ page }) => {
  await page.goto('/backend/login?next=//evil.example/backend/x');
  await page.getByLabel('Login or email').fill(ADMIN.login);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/backend$/);
});

test('signing out in one tab signs out the other', async ({ context }) => {
  const first = await context.newPage();
  await signIn(first);
  const second = await context.newPage();
  await second.goto('/backend/acme/catalog/products');
  await expect(second.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
  await first.locator('.cms-account summary').click();
  await first.getByRole('button', { name: 'Sign out' }).click();
  await expect(first.getByRole('heading', { name: 'Sign in to the admin' })).toBeVisible();
  await expect(second.getByRole('heading', { name: 'Sign in to the admin' })).toBeVisible();
  const me = await second.request.get(`${API}/auth/me`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
  expect(me.status()).toBe(401);
});

test('a session that ends while working opens a sign-in dialog and keeps what was typed', async ({ page, context }) => {
  await signIn(page, '/backend/acme/catalog/products');
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
  // The session ends behind the page's back (revoked elsewhere, expired).
  const api = await apiAs();
  await context.clearCookies();
  await page.getByRole('searchbox', { name: 'Search' }).fill('lamp');
  const dialog = page.getByRole('dialog', { name: 'Your session has ended' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Login or email').fill(ADMIN.login);
  await dialog.getByLabel('Password').fill(ADMIN.password);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await expect(dialog).toBeHidden();
  // The search that waited ran after the sign-in: the typed text and its result are there.
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('lamp');
  await expect(page.getByRole('link', { name: 'Desk lamp' })).toBeVisible();
  await expect(page).toHaveURL(/search=lamp/);
  await api.dispose();
});
