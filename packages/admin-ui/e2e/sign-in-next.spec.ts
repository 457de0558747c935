import { expect, test } from '@playwright/test';
import { ADMIN, screenshot } from './support.ts';

/*
 * `?next=` after sign-in (docs/admin-ui.md, "Security"): the path the browser would resolve is
 * checked, so a value that climbs out of the prefix lands on the dashboard, silently.
 */

for (const next of ['/backend/../..//evil.example', '/backend/%2e%2e/%2e%2e//evil.example/backend', '/backend/..\\\\evil.example']) {
  test(`next=${next} signs in to the dashboard, without an error`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`/backend/login?next=${encodeURIComponent(next)}`);
    // Keyboard only, as a person signs in.
    await expect(page.getByRole('heading', { name: 'Sign in to the admin' })).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Login or email')).toBeFocused();
    await page.keyboard.type(ADMIN.login);
    await page.keyboard.press('Tab');
    await page.keyboard.type(ADMIN.password);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(page).toHaveURL(/\/backend$/);
    await expect(page.locator('.cms-login')).toHaveCount(0);
    await screenshot(page, 'sign-in-next-dashboard');
    expect(errors).toEqual([]);
  });
}

test('a next that stays under the prefix after resolving is kept', async ({ page }) => {
  await page.goto(`/backend/login?next=${encodeURIComponent('/backend/x/../acme/catalog/products?search=lamp')}`);
  await page.getByLabel('Login or email').fill(ADMIN.login);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/backend\/acme\/catalog\/products\?search=lamp$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
});
