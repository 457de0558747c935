import { expect, type Page, test } from '@playwright/test';
import { API, apiAs, createAccount, createProducts, expectAccessible, screenshot, signIn, uniqueTag } from './support.ts';

const PRODUCTS = '/backend/acme/catalog/products';
const POSTS = '/backend/cms/journal/posts';
const STOREFRONT = '/backend/acme/catalog/storefront';

const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true });

test.afterEach(async ({ page, context }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await context.unrouteAll({ behavior: 'ignoreErrors' });
});

test('create a product from the list: values typed, saved, shown on its update screen and stored', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('frm');
  await signIn(page, PRODUCTS);
  await page.getByRole('link', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await page.getByLabel('Name').fill(`${tag} shelf`);
  await page.getByLabel('SKU').fill(tag.toUpperCase());
  await page.getByLabel('Price').fill('12.5');
  await screenshot(page, 'form-create');
  await expectAccessible(page);
  await save(page).click();
  await expect(page).toHaveURL(/\/update\/\d+$/);
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  const id = Number(page.url().split('/').pop());
  const stored = await (await api.get(`${API}/acme/catalog/products/${id}`)).json();
  expect(stored.data).toMatchObject({ name: `${tag} shelf`, sku: tag.toUpperCase(), price: '12.50', currency: 'EUR' });
  await expect(page.getByLabel('Price')).toHaveValue('12.50');
  await api.dispose();
});

test('a 422 puts each message under its field and in a summary that takes focus and links to the fields', async ({ page }) => {
  await signIn(page, `${PRODUCTS}/create`);
  await page.getByLabel('Price').fill('12.345');
  await save(page).click();
  const summary = page.locator('.cms-error-summary');
  await expect(summary).toBeFocused();
  const name = page.getByLabel('Name');
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  const described = (await name.getAttribute('aria-describedby')) ?? '';
  await expect(page.locator(`[id="${described.split(' ').pop()}"]`)).toHaveText(/required/i);
  await expect(page.getByLabel('Price')).toHaveAttribute('aria-invalid', 'true');
  await summary.getByRole('link', { name: /^Price:/ }).click();
  await expect(page.getByLabel('Price')).toBeFocused();
  await expectAccessible(page);
  await screenshot(page, 'form-422');
  // Nothing was written.
  expect(page.url()).toMatch(/\/create$/);
});

test('keyboard only: tabs move with the arrows, Ctrl+S saves, Ctrl+Enter saves and closes', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('kbd');
  const post = await api.post(`${API}/cms/journal/posts`, { data: { title: `${tag} post`, slug: tag } });
  const id = (await post.json()).data.id as number;
  await signIn(page, `${POSTS}/update/${id}`);
  const tabs = page.getByRole('tablist').first().getByRole('tab');
  await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');
  // Only the open tab's fields show.
  await expect(page.getByLabel('Status')).toBeHidden();
  await tabs.first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.nth(1)).toBeFocused();
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('End');
  await expect(tabs.last()).toBeFocused();
  await page.keyboard.press('Home');
  await expect(tabs.first()).toBeFocused();
  await page.getByLabel('Title').focus();
  await page.keyboard.press('End');
  await page.keyboard.type(' edited');
  await page.keyboard.press('Control+s');
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  expect((await (await api.get(`${API}/cms/journal/posts/${id}`)).json()).data.title).toBe(`${tag} post edited`);
  await page.keyboard.type(' again');
  await page.keyboard.press('Control+Enter');
  await expect(page).toHaveURL(/\/backend\/cms\/journal\/posts$/);
  expect((await (await api.get(`${API}/cms/journal/posts/${id}`)).json()).data.title).toBe(`${tag} post edited again`);
  await api.dispose();
});

test('a preset slug follows the title on create until it is edited', async ({ page }) => {
  await signIn(page, `${POSTS}/create`);
  await page.getByLabel('Title').fill('Crème Brûlée Recipes');
  await expect(page.getByLabel('Slug')).toHaveValue('creme-brulee-recipes');
  await page.getByLabel('Slug').fill('my-slug');
  await page.getByLabel('Title').fill('Something else');
  await expect(page.getByLabel('Slug')).toHaveValue('my-slug');
});

test('delete asks with the form’s confirm text, then goes back to the list', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('del');
  const [id] = await createProducts(api, tag, 1);
  await signIn(page, `${PRODUCTS}/update/${id}`);
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Delete this record?');
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Delete' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/backend\/acme\/catalog\/products$/);
  await expect(page.getByRole('status').filter({ hasText: 'Deleted.' })).toBeVisible();
  expect((await api.get(`${API}/acme/catalog/products/${id}`)).status()).toBe(404);
  await api.dispose();
});

test('record actions: a confirmed danger action runs and the form shows the new state; a second run is explained', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('act');
  const post = await api.post(`${API}/cms/journal/posts`, { data: { title: `${tag} post`, slug: tag, status: 'published' } });
  const id = (await post.json()).data.id as number;
  await signIn(page, `${POSTS}/update/${id}`);
  const actions = page.getByRole('group', { name: 'Record actions' });
  await actions.getByRole('button', { name: 'Archive' }).click();
  await expect(page.getByRole('dialog')).toContainText('Archive this post?');
  await page.getByRole('dialog').getByRole('button', { name: 'Archive' }).click();
  await expect(page.locator('.cms-status')).not.toBeEmpty();
  await page.getByRole('tab', { name: 'Manage' }).click();
  await expect(page.getByLabel('Status').locator('option:checked')).toHaveText('Archived');
  expect((await (await api.get(`${API}/cms/journal/posts/${id}`)).json()).data.status).toBe('archived');
  await api.dispose();
});

test('duplicate: the built-in record action opens the copy, saying so', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('dup');
  const post = await api.post(`${API}/cms/journal/posts`, { data: { title: `${tag} post`, slug: tag, status: 'published' } });
  const id = (await post.json()).data.id as number;
  await signIn(page, `${POSTS}/update/${id}`);
  await page.getByRole('group', { name: 'Record actions' }).getByRole('button', { name: 'Duplicate' }).click();
  await expect(page).not.toHaveURL(new RegExp(`/update/${id}$`));
  await expect(page).toHaveURL(/\/update\/\d+$/);
  await expect(page.locator('.cms-status')).toContainText('Duplicated.');
  await expect(page.getByLabel('Title')).toHaveValue(`${tag} post (copy)`);
  const copy = Number(page.url().split('/').pop());
  expect((await (await api.get(`${API}/cms/journal/posts/${copy}`)).json()).data).toMatchObject({ slug: `${tag}-copy`, status: 'draft' });
  await api.dispose();
});

test('the colour picker of the catalog plugin edits its field through the element protocol', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('col');
  const [id] = await createProducts(api, tag, 1);
  await signIn(page, `${PRODUCTS}/update/${id}`);
  const colour = page.getByRole('group', { name: 'Colour' });
  await colour.locator('.acme-color-picker__swatch').first().click();
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await save(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  expect((await (await api.get(`${API}/acme/catalog/products/${id}`)).json()).data.color).toBe('#1f6feb');
  await api.dispose();
});

test('a plugin element uploads through the uploadUrl the host gives it (the colour of an image)', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('colu');
  const [id] = await createProducts(api, tag, 1);
  await signIn(page, `${PRODUCTS}/update/${id}`);
  const colour = page.getByRole('group', { name: 'Colour' });
  const file = colour.locator('.acme-color-picker__file');
  await expect(file).toBeVisible();
  // One pixel of pure red: the field type's upload answers its average colour.
  const red = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 'base64');
  const uploaded = page.waitForResponse((r) => r.url().endsWith(`/acme/catalog/products/${id}/fields/color/upload`));
  await file.setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: red });
  expect((await uploaded).status()).toBe(200);
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await save(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  expect((await (await api.get(`${API}/acme/catalog/products/${id}`)).json()).data.color).toBe('#ff0000');
  // On the create form there is no record to upload for: the element gets no uploadUrl.
  await page.goto(`${PRODUCTS}/create`);
  await expect(page.getByRole('group', { name: 'Colour' }).locator('.acme-color-picker__swatch').first()).toBeVisible();
  await expect(page.getByRole('group', { name: 'Colour' }).locator('.acme-color-picker__file')).toBeHidden();
  await api.dispose();
});

test('a partial field shows the record’s partial; an element that never loads leaves its field read only', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('prt');
  const [id] = await createProducts(api, tag, 1);
  await page.route(/color-picker\.js/, (route) => route.fulfill({ status: 404, body: '' }));
  await signIn(page, `${PRODUCTS}/update/${id}`);
  await expect(page.locator('cms-field[data-name="stock_summary"] cms-partial')).not.toBeEmpty();
  await expect(page.getByRole('group', { name: 'Colour' }).getByText('did not load')).toBeVisible({ timeout: 10_000 });
  // The rest of the form works.
  await page.getByLabel('Name').fill(`${tag} renamed`);
  await save(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await api.dispose();
});

test('a 403 with details names the refused fields; a transient 409 keeps the form and says to save again', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('ref');
  const [id] = await createProducts(api, tag, 1);
  await signIn(page, `${PRODUCTS}/update/${id}`);
  await page.getByLabel('Name').fill(`${tag} refused`);
  await page.route(
    (url) => url.pathname.endsWith(`/acme/catalog/products/${id}`),
    (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 403,
            json: { error: { code: 'forbidden', message: 'Forbidden.', details: { name: ['You may not change the name.'] } } },
          })
        : route.continue(),
  );
  await save(page).click();
  const summary = page.locator('.cms-error-summary');
  await expect(summary).toBeFocused();
  await expect(summary).toContainText('You may not change these fields.');
  await expect(summary.getByRole('link', { name: 'Name: You may not change the name.' })).toBeVisible();
  await page.unrouteAll();
  await page.route(
    (url) => url.pathname.endsWith(`/acme/catalog/products/${id}`),
    (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 409, json: { error: { code: 'transient_conflict', message: 'Try again.', details: {} } } })
        : route.continue(),
  );
  await save(page).click();
  await expect(summary).toContainText('save again');
  await expect(page.getByLabel('Name')).toHaveValue(`${tag} refused`);
  await page.unrouteAll();
  await save(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  expect((await (await api.get(`${API}/acme/catalog/products/${id}`)).json()).data.name).toBe(`${tag} refused`);
  await api.dispose();
});

test('a hostile form partial stays inert: no dialog, no request, nothing that runs', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('hst');
  const [id] = await createProducts(api, tag, 1);
  page.on('dialog', () => {
    throw new Error('a dialog opened');
  });
  const requested: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('evil')) requested.push(request.url());
  });
  await page.route(
    (url) => url.pathname.endsWith('/partials/stock_summary'),
    (route) =>
      route.fulfill({
        json: {
          data: {
            nodes: [
              { tag: 'p', attrs: { onclick: 'alert(1)', class: 'kept' }, children: [{ text: '<img src=x onerror=alert(1)>' }] },
              { tag: 'a', attrs: { href: 'javascript:alert(1)' }, children: [{ text: 'link' }] },
              { tag: 'script', children: [{ text: 'alert(1)' }] },
              { tag: 'img', attrs: { src: 'https://evil.invalid/x.png', onerror: 'alert(1)' } },
              { tag: 'iframe', attrs: { src: 'https://evil.invalid/' } },
            ],
          },
        },
      }),
  );
  await signIn(page, `${PRODUCTS}/update/${id}`);
  const partial = page.locator('cms-field[data-name="stock_summary"] cms-partial');
  await expect(partial.locator('p.kept')).toHaveText('<img src=x onerror=alert(1)>');
  await expect(partial.locator('[onclick], [onerror], script, iframe')).toHaveCount(0);
  await expect(partial.locator('a')).not.toHaveAttribute('href', /javascript/);
  await page.locator('p.kept').click();
  expect(requested.filter((url) => !url.endsWith('x.png'))).toEqual([]);
  await api.dispose();
});

test('the preview screen shows the record read only with its header partial and an Edit link', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('prv');
  const [id] = await createProducts(api, tag, 1);
  await signIn(page, `${PRODUCTS}/preview/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Preview' })).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveAttribute('readonly');
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
  await expect(page.locator('cms-form > cms-partial').first()).not.toBeEmpty();
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page).toHaveURL(new RegExp(`/update/${id}$`));
  await expect(page.getByLabel('Name')).not.toHaveAttribute('readonly');
  await api.dispose();
});

test('an admin’s password is never shown and only sent when typed; the permission editors in both modes', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('pwd');
  const created = await api.post(`${API}/cms/backend/admins`, {
    data: { login: tag, email: `${tag}@example.com`, password: `${tag}-first-password` },
  });
  const id = (await created.json()).data.id as number;
  await signIn(page, `/backend/cms/backend/admins/update/${id}`);
  const password = page.getByLabel('Password', { exact: true });
  await expect(password).toHaveValue('');
  await expect(password).toHaveAttribute('autocomplete', 'new-password');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  // A first save without a password keeps the old one.
  await page.getByLabel('First name').fill('Kept');
  await save(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  const login = async (secret: string) =>
    (await api.post(`${API}/auth/login`, { data: { login: tag, password: secret }, headers: { Authorization: '' } })).status();
  expect(await login(`${tag}-first-password`)).toBe(200);
  await password.fill(`${tag}-second-password`);
  await page.getByRole('tab', { name: 'Permissions' }).click();
  const table = page.locator('.cms-permission-table').first();
  await table
    .getByRole('radio', { name: /: Allow$/ })
    .first()
    .check();
  await expectAccessible(page);
  await screenshot(page, 'form-permissions');
  await save(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(password).toHaveValue('');
  expect(await login(`${tag}-second-password`)).toBe(200);
  const stored = (await (await api.get(`${API}/cms/backend/admins/${id}`)).json()).data;
  expect(Object.values(stored.permissions)).toContain(1);
  expect(stored).not.toHaveProperty('password');
  // Checkbox mode: a role.
  const role = await api.post(`${API}/cms/backend/roles`, { data: { code: tag, name: `${tag} role` } });
  const roleId = (await role.json()).data.id as number;
  await page.goto(`/backend/cms/backend/roles/update/${roleId}`);
  await page.getByRole('checkbox').first().check();
  await save(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  const permissions = (await (await api.get(`${API}/cms/backend/roles/${roleId}`)).json()).data.permissions;
  expect(Object.values(permissions)).toEqual([1]);
  await api.dispose();
});

for (const theme of ['light', 'dark'] as const) {
  test(`axe: the form screens in the ${theme} theme`, async ({ page }) => {
    // Three full axe runs: slow on a busy machine.
    test.slow();
    await page.emulateMedia({ colorScheme: theme });
    const api = await apiAs();
    const tag = uniqueTag('axf');
    const [id] = await createProducts(api, tag, 1);
    await signIn(page, `${PRODUCTS}/update/${id}`);
    await expect(page.getByLabel('Name')).toHaveValue(`${tag} 1`);
    await expectAccessible(page);
    await screenshot(page, `form-products-${theme}`);
    await page.goto(`${POSTS}/update/1`);
    await expect(page.getByLabel('Title')).not.toHaveValue('');
    await expectAccessible(page);
    await screenshot(page, `form-posts-${theme}`);
    await page.goto(STOREFRONT);
    await expect(page.getByLabel('Shop name')).not.toHaveValue('');
    await expectAccessible(page);
    await screenshot(page, `form-storefront-${theme}`);
    await api.dispose();
  });
}

test('axe: a form in German at 320 px, without horizontal scrolling', async ({ page }) => {
  const api = await apiAs();
  const account = await createAccount(api, 'axde');
  const tag = uniqueTag('axd');
  const [id] = await createProducts(api, tag, 1);
  await page.setViewportSize({ width: 320, height: 720 });
  await signIn(page, `${PRODUCTS}/update/${id}`, account);
  await page.locator('details.cms-account summary').click();
  await page.getByLabel('Language').selectOption('de');
  await expect(page.getByRole('button', { name: 'Speichern', exact: true })).toBeVisible();
  await page.locator('details.cms-account summary').click();
  await screenshot(page, 'form-de-320');
  await expectAccessible(page);
  // Nothing reaches past the right edge (the list names what does).
  const wide = await page.evaluate(() =>
    Array.from(document.querySelectorAll('main *'))
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .map((element) => `${element.localName}.${element.className}`),
  );
  expect(wide).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await api.dispose();
});

test('a widget runs its action: the fill is written into the form as a change, the message is announced', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('wdg');
  const created = await api.post(`${API}/acme/catalog/products`, {
    data: { name: `${tag} 1`, sku: tag.toUpperCase(), currency: 'EUR', price: '1.00', cost: '10.0000' },
  });
  const id = (await created.json()).data.id as number;
  await signIn(page, `${PRODUCTS}/update/${id}`);
  const helper = page.getByRole('group', { name: 'Price helper' });
  await helper.getByRole('textbox').fill('50');
  await helper.getByRole('button', { name: 'Suggest a price' }).click();
  await expect(page.getByLabel('Price')).toHaveValue('15.00');
  await expect(page.locator('.cms-status')).toContainText('15.00');
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  // Enter in the element's own input runs it too (its `cms-widget-run` event).
  await helper.getByRole('textbox').fill('100');
  await helper.getByRole('textbox').press('Enter');
  await expect(page.getByLabel('Price')).toHaveValue('20.00');
  await save(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  expect((await (await api.get(`${API}/acme/catalog/products/${id}`)).json()).data.price).toBe('20.00');
  // A refused payload shows its message under the button.
  await helper.getByRole('textbox').fill('not a number');
  await helper.getByRole('button', { name: 'Suggest a price' }).click();
  await expect(helper.locator('.cms-field-error')).not.toBeEmpty();
  await api.dispose();
});

/** Presses Tab until `target` has the focus (at most 60 times): the field is reachable by keyboard alone. */
async function tabTo(page: Page, target: ReturnType<Page['locator']>): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('not reachable with Tab');
}

test('keyboard only: a product with every kind of field of its form, created and saved', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('kbp');
  await signIn(page, `${PRODUCTS}/create`);
  await tabTo(page, page.getByLabel('Name'));
  await page.keyboard.type(`${tag} keyboard`);
  await page.keyboard.press('Tab');
  await page.keyboard.type(tag.toUpperCase());
  await tabTo(page, page.getByLabel('Currency'));
  await page.keyboard.press('ArrowDown');
  await tabTo(page, page.getByLabel('Price'));
  await page.keyboard.type('19.9');
  await tabTo(page, page.getByLabel('Cost'));
  await page.keyboard.type('7.1234');
  await tabTo(page, page.getByLabel('Release date'));
  await page.keyboard.type('2024-05-17');
  await tabTo(page, page.getByRole('textbox', { name: 'Features' }));
  await page.keyboard.type('solid,');
  await page.keyboard.type('light');
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('group', { name: 'Colour' }).locator('.acme-color-picker__swatch').nth(1));
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+s');
  await expect(page).toHaveURL(/\/update\/\d+$/);
  const id = Number(page.url().split('/').pop());
  const stored = (await (await api.get(`${API}/acme/catalog/products/${id}`)).json()).data;
  expect(stored).toMatchObject({
    name: `${tag} keyboard`,
    sku: tag.toUpperCase(),
    currency: 'USD',
    price: '19.90',
    cost: '7.1234',
    release_date: '2024-05-17',
    features: ['solid', 'light'],
    color: '#f5c518',
  });
  await api.dispose();
});

// Both flip the storefront's one checkbox: one after the other.
test.describe
  .serial('the storefront singleton', () => {
    test('the storefront singleton: text, mltext per language and the checkbox element round trip', async ({ page }) => {
      const api = await apiAs();
      const before = (await (await api.get(`${API}/acme/catalog/storefront/singleton`)).json()).data;
      const tag = uniqueTag('shop');
      await signIn(page, STOREFRONT);
      await expect(page.getByRole('heading', { level: 1, name: 'Storefront' })).toBeVisible();
      await page.getByLabel('Tagline').fill(`${tag} tagline`);
      const announcement = page.getByRole('group', { name: 'Announcement' });
      await announcement.getByRole('button', { name: 'German' }).click();
      await expect(announcement.getByRole('textbox')).toBeFocused();
      await page.keyboard.press('Control+a');
      await page.keyboard.type(`${tag} Ankündigung`);
      const open = page.getByRole('group', { name: 'Open on Sundays' }).getByRole('checkbox');
      await open.click();
      await expectAccessible(page);
      await screenshot(page, 'form-singleton');
      await save(page).click();
      await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
      const after = (await (await api.get(`${API}/acme/catalog/storefront/singleton`)).json()).data;
      expect(after.tagline).toBe(`${tag} tagline`);
      expect(after.announcement).toEqual({ ...before.announcement, de: `${tag} Ankündigung` });
      expect(after.open_on_sundays).toBe(!before.open_on_sundays);
      await api.dispose();
    });

    test('keyboard only: the storefront’s text, languages and checkbox, saved with Ctrl+Enter', async ({ page }) => {
      const api = await apiAs();
      const before = (await (await api.get(`${API}/acme/catalog/storefront/singleton`)).json()).data;
      const tag = uniqueTag('kbs');
      await signIn(page, STOREFRONT);
      await tabTo(page, page.getByLabel('Tagline'));
      await page.keyboard.press('Control+a');
      await page.keyboard.type(`${tag} by keyboard`);
      const announcement = page.getByRole('group', { name: 'Announcement' });
      await tabTo(page, announcement.getByRole('button', { name: 'German' }));
      await page.keyboard.press('Enter');
      await expect(announcement.getByRole('textbox')).toBeFocused();
      await page.keyboard.press('Control+a');
      await page.keyboard.type(`${tag} per Tastatur`);
      await tabTo(page, page.getByRole('group', { name: 'Open on Sundays' }).getByRole('checkbox'));
      await page.keyboard.press('Space');
      await page.keyboard.press('Control+Enter');
      await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
      const after = (await (await api.get(`${API}/acme/catalog/storefront/singleton`)).json()).data;
      expect(after.tagline).toBe(`${tag} by keyboard`);
      expect(after.announcement.de).toBe(`${tag} per Tastatur`);
      expect(after.open_on_sundays).toBe(!before.open_on_sundays);
      await api.dispose();
    });
  });
