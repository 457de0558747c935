import { expect, type Page, test } from '@playwright/test';
import { API, apiAs, createAccount, expectAccessible, screenshot, signIn } from './support.ts';

/*
 * The account screen (docs/admin-ui.md, "Account"): profile (email rules, a taken email), the
 * password change that keeps the session, the avatar in the header's menu, preferences applied at
 * once, personal API tokens (shown once, listed, revoked), keyboard only, axe in both themes,
 * German at 320 px. Every test uses accounts of its own: the `admin` account is never changed.
 */

const ACCOUNT = '/backend/account';
const PREFERENCES = '/backend/account/preferences';
/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

async function newAccount(prefix: string): Promise<{ login: string; password: string }> {
  const api = await apiAs();
  const account = await createAccount(api, prefix);
  await api.dispose();
  return account;
}

/** Presses Tab until the target has the focus (keyboard only: no click, no programmatic focus). */
async function tabTo(page: Page, target: ReturnType<Page['locator']>): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('not reachable with Tab');
}

/** The API as the browser's session calls it (cookie, `X-Requested-With`): the status of `GET /auth/me`. */
const sessionStatus = (page: Page) =>
  page.evaluate(async (api) => (await fetch(`${api}/auth/me`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } })).status, API);

test('the profile: a taken email is refused under its field, a bad one before sending, a good one saved', async ({ page }) => {
  const other = await newAccount('acco');
  const account = await newAccount('accp');
  await signIn(page, ACCOUNT, account);
  await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
  const email = page.getByLabel('Email');
  await expect(email).toHaveValue(`${account.login}@example.com`);
  // Another admin's address (in another spelling): the server's 422 under the field.
  await email.fill(`${other.login.toUpperCase()}@example.com`);
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toBeFocused();
  await expect(page.locator('#cms-account-email-error')).not.toBeEmpty();
  await expect(email).toHaveAccessibleDescription(/.+/);
  await screenshot(page, 'account-email-taken');
  // Not an address: said before anything is sent.
  let puts = 0;
  page.on('request', (request) => {
    if (request.method() === 'PUT' && request.url().endsWith(`${API}/account`)) puts++;
  });
  await email.fill('not-an-address');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.locator('#cms-account-email-error')).toHaveText('Enter an email address such as name@example.com.');
  expect(puts).toBe(0);
  // A good one, with names: saved, and the header's menu shows the new name.
  await email.fill(`${account.login}-new@example.com`);
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Subtitle').fill('Analyst');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Profile saved.' })).toBeVisible();
  await expect(email).not.toHaveAttribute('aria-invalid');
  await expect(page.locator('details.cms-account summary')).toContainText('Ada Lovelace');
  const api = await apiAs(account);
  const me = (await (await api.get(`${API}/auth/me`)).json()).data;
  expect(me).toMatchObject({ email: `${account.login}-new@example.com`, first_name: 'Ada', last_name: 'Lovelace', subtitle: 'Analyst' });
  await api.dispose();
});

test('unsaved profile changes are guarded', async ({ page }) => {
  const account = await newAccount('accg');
  await signIn(page, ACCOUNT, account);
  await page.getByLabel('First name').fill('Changed');
  await expect(page).toHaveTitle(/^• /);
  await page.getByRole('link', { name: 'Preferences and API tokens' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByLabel('First name')).toHaveValue('Changed');
  await page.getByRole('link', { name: 'Preferences and API tokens' }).click();
  await leave.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page).toHaveURL(/\/account\/preferences$/);
  // Preferences never ask.
  await page.getByRole('radio', { name: 'Dark' }).check();
  await page.getByRole('link', { name: 'Profile', exact: true }).click();
  await expect(page.getByLabel('First name')).toHaveValue('');
  await expect(leave).toBeHidden();
});

test('a password change keeps the session: a later call succeeds, and the new password signs in', async ({ page, browser }) => {
  const account = await newAccount('accw');
  await signIn(page, ACCOUNT, account);
  // A wrong current password: under its field.
  await page.getByLabel('Current password').fill('not-the-password');
  await page.getByLabel('New password', { exact: true }).fill(`${account.password}-2`);
  await page.getByLabel('New password again').fill(`${account.password}-2`);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#cms-account-current_password-error')).not.toBeEmpty();
  // Two different new ones: said before sending.
  await page.getByLabel('Current password').fill(account.password);
  await page.getByLabel('New password again').fill('something else');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.locator('#cms-account-password_repeat-error')).toHaveText('The two new passwords differ.');
  await page.getByLabel('New password again').fill(`${account.password}-2`);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Password changed. You are still signed in.' })).toBeVisible();
  await expect(page.getByLabel('Current password')).toHaveValue('');
  // Still signed in: the rotated cookie answers, and the next screen loads without a sign-in.
  expect(await sessionStatus(page)).toBe(200);
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.locator('.cms-login')).toHaveCount(0);
  // The new password signs in; the old one no more.
  const fresh = await browser.newPage();
  await signIn(fresh, '/backend', { login: account.login, password: `${account.password}-2` });
  await fresh.close();
  const anonymous = await apiAs({ login: account.login, password: `${account.password}-2` });
  const old = await anonymous.post(`${API}/auth/login`, { data: account, headers: { Authorization: '' } });
  expect(old.status()).toBe(401);
  await anonymous.dispose();
});

test('the avatar: checked before sending, uploaded, shown in the header’s menu, removed', async ({ page }) => {
  const account = await newAccount('acca');
  await signIn(page, ACCOUNT, account);
  const header = page.locator('details.cms-account summary');
  await expect(header.locator('img')).toHaveCount(0);
  let posts = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith(`${API}/account/avatar`)) posts++;
  });
  const file = page.getByLabel('Upload a picture');
  await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.locator('#cms-avatar-error')).toHaveText('This file is not a JPG, PNG, GIF or WebP image.');
  await file.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(2 * 1024 * 1024 + 1) });
  await expect(page.locator('#cms-avatar-error')).toHaveText('This picture is larger than 2 MB.');
  expect(posts).toBe(0);
  await file.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByRole('status').filter({ hasText: 'Picture saved.' })).toBeVisible();
  expect(posts).toBe(1);
  await expect(page.locator('#cms-avatar-error')).toHaveCount(0);
  await expect(page.getByRole('img', { name: 'Your picture' })).toBeVisible();
  await expect(header.locator('img.cms-avatar')).toHaveAttribute('src', /.+/);
  const api = await apiAs(account);
  const avatar = (await (await api.get(`${API}/auth/me`)).json()).data.avatar;
  expect(avatar.thumb_url).toBeTruthy();
  await expect(header.locator('img.cms-avatar')).toHaveAttribute('src', avatar.thumb_url);
  await screenshot(page, 'account-avatar');
  await page.getByRole('button', { name: 'Remove the picture' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Picture removed.' })).toBeVisible();
  await expect(header.locator('img')).toHaveCount(0);
  await expect(page.getByRole('img', { name: 'Your picture' })).toHaveCount(0);
  await expect(page.getByLabel('Upload a picture')).toBeFocused();
  expect((await (await api.get(`${API}/auth/me`)).json()).data.avatar.thumb_url).toBeNull();
  await api.dispose();
});

test('preferences: the theme and the language apply at once and are kept', async ({ page }) => {
  const account = await newAccount('accf');
  await signIn(page, PREFERENCES, account);
  await page.getByRole('radio', { name: 'Dark' }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByRole('status').filter({ hasText: 'Preferences saved.' })).toBeVisible();
  await page.getByLabel('Language', { exact: true }).selectOption('de');
  await expect(page.getByRole('heading', { level: 1, name: 'Mein Konto' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { level: 2, name: 'Persönliche API-Token' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Darstellung und Sprache gespeichert.' })).toBeVisible();
  const api = await apiAs(account);
  const preferences = (await (await api.get(`${API}/auth/me`)).json()).data.preferences;
  expect(preferences).toEqual({ admin_theme: 'dark', admin_locale: 'de' });
  await api.dispose();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Mein Konto' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Dunkel' })).toBeChecked();
});

test('API tokens: created and shown once, listed, working, revoked', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const account = await newAccount('acct');
  await signIn(page, PREFERENCES, account);
  await expect(page.getByText('You have no API tokens.')).toBeVisible();
  // A name is needed; the expiry is checked.
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Name', { exact: true }).fill('deploy script');
  await page.getByLabel('Expires after (days)').fill('99999');
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByLabel('Expires after (days)')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Expires after (days)').fill('30');
  await page.getByRole('button', { name: 'Create token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Your new token' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('you will not see it again');
  const value = dialog.getByLabel('Token deploy script');
  const token = await value.inputValue();
  expect(token).toMatch(/^cms_pat_/);
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Token copied.' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await screenshot(page, 'account-token-created');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Create token' })).toBeFocused();
  // Shown once: nowhere on the page any more.
  expect(await page.content()).not.toContain(token);
  const row = page.getByRole('row', { name: /deploy script/ });
  await expect(row).toContainText(token.slice(0, 16));
  await expect(row).toContainText('Never');
  // It works for a script.
  const scripted = await page.request.get(`${API}/navigation`, { headers: { Authorization: `Bearer ${token}` } });
  expect(scripted.status()).toBe(200);
  await page.reload();
  await expect(page.getByRole('row', { name: /deploy script/ })).toBeVisible();
  // Revoked after a confirmation (Cancel first).
  await page.getByRole('button', { name: 'Revoke deploy script' }).click();
  const confirm = page.getByRole('dialog', { name: /Revoke the token deploy script/ });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Revoke deploy script' })).toBeFocused();
  await page.getByRole('button', { name: 'Revoke deploy script' }).click();
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Token deploy script revoked.' })).toBeVisible();
  await expect(page.getByText('You have no API tokens.')).toBeVisible();
  const after = await page.request.get(`${API}/navigation`, { headers: { Authorization: `Bearer ${token}` } });
  expect(after.status()).toBe(401);
});

test('keyboard only: create a token, close its dialog with Escape, and the focus comes back', async ({ page }) => {
  const account = await newAccount('acck');
  await signIn(page, PREFERENCES, account);
  await tabTo(page, page.getByLabel('Name', { exact: true }));
  await page.keyboard.type('keyboard token');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Expires after (days)')).toBeFocused();
  await page.keyboard.type('7');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Your new token' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Token keyboard token')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Copy' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Create token' })).toBeFocused();
  await expect(page.getByRole('row', { name: /keyboard token/ })).toBeVisible();
  // Revoke with the keyboard: the row's button, then the dialog's.
  await tabTo(page, page.getByRole('button', { name: 'Revoke keyboard token' }));
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: /Revoke the token keyboard token/ });
  await expect(confirm).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('button', { name: 'Revoke keyboard token' })).toBeFocused();
});

for (const theme of ['light', 'dark'] as const) {
  test(`axe: the account’s screens and dialogs in the ${theme} theme`, async ({ page }) => {
    test.slow();
    await page.emulateMedia({ colorScheme: theme });
    const account = await newAccount('accx');
    await signIn(page, ACCOUNT, account);
    await expect(page.getByLabel('Email')).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, `account-profile-${theme}`);
    // With refusals under the fields.
    await page.getByLabel('Email').fill('nope');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.locator('#cms-account-current_password-error')).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel('Email').fill(`${account.login}@example.com`);
    await page.getByRole('link', { name: 'Preferences and API tokens' }).click();
    await page.getByLabel('Name', { exact: true }).fill('axe token');
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect(page.getByRole('dialog', { name: 'Your new token' })).toBeVisible();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('row', { name: /axe token/ })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, `account-preferences-${theme}`);
    await page.getByRole('button', { name: 'Revoke axe token' }).click();
    await expect(page.getByRole('dialog', { name: /Revoke the token/ })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, `account-revoke-${theme}`);
  });
}

test('axe: the account in German at 320 px, without horizontal scrolling', async ({ page }) => {
  const account = await newAccount('accd');
  await page.setViewportSize({ width: 320, height: 720 });
  await signIn(page, PREFERENCES, account);
  await page.getByLabel('Language', { exact: true }).selectOption('de');
  await expect(page.getByRole('heading', { level: 1, name: 'Mein Konto' })).toBeVisible();
  await page.getByRole('link', { name: 'Profil', exact: true }).click();
  await expect(page.getByLabel('Vorname')).toBeVisible();
  await screenshot(page, 'account-profile-de-320');
  await expectAccessible(page);
  const wide = await page.evaluate(() =>
    Array.from(document.querySelectorAll('main *'))
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .map((element) => `${element.localName}.${element.className}`),
  );
  expect(wide).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
});
