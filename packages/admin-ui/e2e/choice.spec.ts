import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { ADMIN, API, apiAs, createAccount, createProducts, expectAccessible, screenshot, signIn, uniqueTag } from './support.ts';

/*
 * The choice fields (docs/field-types.md, "dropdown", "relation", "taglist"; docs/admin-ui.md,
 * "Forms"): each shown, edited with the mouse and with the keyboard only, saved and read back
 * over the API.
 */

const PRODUCTS = '/backend/acme/catalog/products';
const POSTS = '/backend/cms/journal/posts';
const ADMINS = '/backend/cms/backend/admins';

const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true });
const saved = (page: Page) => expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
const listbox = (page: Page, name: string) => page.getByRole('listbox', { name });
const chips = (page: Page, name: string) => page.getByRole('list', { name }).getByRole('listitem');

// Round trips with several saves each.
test.describe.configure({ timeout: 60_000 });

test.afterEach(async ({ page, context }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await context.unrouteAll({ behavior: 'ignoreErrors' });
});

async function createPost(api: APIRequestContext, tag: string, data: Record<string, unknown> = {}): Promise<number> {
  const answer = await api.post(`${API}/cms/journal/posts`, { data: { title: `${tag} post`, slug: tag.toLowerCase(), ...data } });
  expect(answer.status(), await answer.text()).toBe(201);
  return (await answer.json()).data.id as number;
}

async function stored(api: APIRequestContext, path: string): Promise<{ data: Record<string, unknown>; meta: Record<string, unknown> }> {
  const answer = await api.get(`${API}${path}`);
  expect(answer.status()).toBe(200);
  return answer.json();
}

/** The id of the journal category named `name` (the demo data's). */
async function categoryId(api: APIRequestContext, name: string): Promise<number> {
  const answer = await api.get(`${API}/cms/journal/posts/fields/categories/options`, { params: { search: name, per_page: 100 } });
  const option = ((await answer.json()).data as { label: string; value: number }[]).find((candidate) => candidate.label === name);
  expect(option, `category ${name}`).toBeTruthy();
  return option!.value;
}

/**
 * axe-core as `expectAccessible` runs it, on one field (its listbox open or not): the other fields
 * of these forms belong to other tests.
 */
async function expectFieldAccessible(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .include(`cms-field:has(#field-${name})`)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(
    serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join('; ')})`),
  ).toEqual([]);
}

async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name }).click();
}

test('dropdown: a native select, by mouse and by keyboard, saved as the option value', async ({ page }) => {
  const api = await apiAs();
  const [id] = await createProducts(api, uniqueTag('dd'), 1);
  await signIn(page, `${PRODUCTS}/update/${id}`);
  const currency = page.getByLabel('Currency');
  await expect(currency).toHaveValue(/.+/);
  await expect(currency.locator('option:checked')).toHaveText('EUR');
  await currency.selectOption({ label: 'USD' });
  await save(page).click();
  await saved(page);
  expect((await stored(api, `/acme/catalog/products/${id}`)).data.currency).toBe('USD');

  // Keyboard only: the focused select steps back to EUR with ArrowUp.
  await currency.focus();
  await page.keyboard.press('ArrowUp');
  await expect(currency.locator('option:checked')).toHaveText('EUR');
  await save(page).focus();
  await page.keyboard.press('Enter');
  await saved(page);
  expect((await stored(api, `/acme/catalog/products/${id}`)).data.currency).toBe('EUR');
  await api.dispose();
});

test('dropdown: over twenty options a combobox with typeahead, by keyboard and by mouse', async ({ page }) => {
  const api = await apiAs();
  const [id] = await createProducts(api, uniqueTag('ddc'), 1);
  // The same field with 24 more (made-up) currencies: EUR and USD among them stay the stored keys.
  await page.route('**/acme/catalog/products/schema/form', async (route) => {
    const answer = await route.fetch();
    const body = await answer.json();
    const currency = body.data.fields.find((field: { name: string }) => field.name === 'currency');
    currency.options = [
      ...currency.options,
      ...Array.from({ length: 24 }, (_, n) => ({ label: `Currency ${String.fromCharCode(65 + n)}`, value: `X${n}` })),
    ];
    await route.fulfill({ response: answer, json: body });
  });
  await signIn(page, `${PRODUCTS}/update/${id}`);
  const currency = page.getByRole('combobox', { name: 'Currency' });
  await expect(currency).toHaveValue('EUR');

  // Keyboard only: typed text filters, the first match is active, Enter takes it.
  await currency.focus();
  await page.keyboard.type('us');
  const options = listbox(page, 'Currency');
  await expect(options.getByRole('option')).toHaveText(['USD']);
  await expect(page.getByRole('status').filter({ hasText: '1 result available.' })).toBeAttached();
  await expect(currency).toHaveAttribute('aria-activedescendant', /option-0$/);
  await page.keyboard.press('Enter');
  await expect(currency).toHaveValue('USD');
  await expect(currency).toHaveAttribute('aria-expanded', 'false');
  // Down opens at the first option, End and Home jump, Escape closes and keeps the value.
  await page.keyboard.press('ArrowDown');
  await expect(options.getByRole('option')).toHaveCount(26);
  await page.keyboard.press('End');
  await expect(currency).toHaveAttribute('aria-activedescendant', /option-25$/);
  await page.keyboard.press('Home');
  await expect(currency).toHaveAttribute('aria-activedescendant', /option-0$/);
  await expect(options.getByRole('option', { name: 'USD' })).toHaveAttribute('aria-selected', 'true');
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(currency).toHaveAttribute('aria-expanded', 'false');
  await expect(currency).toHaveValue('USD');
  await save(page).click();
  await saved(page);
  expect((await stored(api, `/acme/catalog/products/${id}`)).data.currency).toBe('USD');

  // Mouse: open, click EUR.
  await currency.click();
  await options.getByRole('option', { name: 'EUR' }).click();
  await expect(currency).toHaveValue('EUR');
  await save(page).click();
  await saved(page);
  expect((await stored(api, `/acme/catalog/products/${id}`)).data.currency).toBe('EUR');
  await api.dispose();
});

test('dropdown: boolean options stay booleans (an admin’s superuser flag)', async ({ page }) => {
  const api = await apiAs();
  const login = uniqueTag('boolsu');
  const created = await api.post(`${API}/cms/backend/admins`, {
    data: { login, email: `${login}@example.com`, password: `${login}-password` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).data.id as number;
  expect((await stored(api, `/cms/backend/admins/${id}`)).data.is_superuser).toBe(false);

  await signIn(page, `${ADMINS}/update/${id}`);
  await openTab(page, 'Permissions');
  const superuser = page.getByLabel('Superuser');
  await expect(superuser.locator('option:checked')).toHaveText('No');
  await superuser.focus();
  await page.keyboard.press('ArrowDown');
  await expect(superuser.locator('option:checked')).toHaveText('Yes');
  await save(page).click();
  await saved(page);
  expect((await stored(api, `/cms/backend/admins/${id}`)).data.is_superuser).toBe(true);

  await superuser.selectOption({ label: 'No' });
  await save(page).click();
  await saved(page);
  expect((await stored(api, `/cms/backend/admins/${id}`)).data.is_superuser).toBe(false);
  await api.dispose();
});

test('relation, belongsTo: a searchable combobox, picked by mouse, by keyboard, and cleared to no value', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('bt');
  const id = await createPost(api, tag, { author: null });
  const adminId = (await (await api.get(`${API}/auth/me`)).json()).data.id as number;
  await signIn(page, `${POSTS}/update/${id}`);
  await openTab(page, 'Manage');
  const author = page.getByRole('combobox', { name: 'Author' });
  await expect(author).toHaveValue('— No author —');
  await expect(author).toHaveAttribute('aria-expanded', 'false');

  // Mouse: open, pick the admin.
  await author.click();
  await expect(author).toHaveAttribute('aria-expanded', 'true');
  const options = listbox(page, 'Author');
  await expect(options.getByRole('option', { name: ADMIN.login, exact: true })).toBeVisible();
  await expect(options.getByRole('option').first()).toHaveText('— No author —');
  await expect(page.getByRole('status').filter({ hasText: /results? available/ })).toBeAttached();
  await screenshot(page, 'choice-relation-open');
  await expectFieldAccessible(page, 'author');
  await options.getByRole('option', { name: ADMIN.login, exact: true }).click();
  await expect(author).toHaveValue(ADMIN.login);
  await expect(author).toHaveAttribute('aria-expanded', 'false');
  await save(page).click();
  await saved(page);
  expect((await stored(api, `/cms/journal/posts/${id}`)).data.author).toBe(adminId);

  // Keyboard only: Down opens with the first option active, Enter takes it (the empty choice).
  await author.focus();
  await page.keyboard.press('ArrowDown');
  await expect(author).toHaveAttribute('aria-expanded', 'true');
  await expect(author).toHaveAttribute('aria-activedescendant', /option/);
  const active = await author.getAttribute('aria-activedescendant');
  await expect(page.locator(`[id="${active}"]`)).toHaveText('— No author —');
  await page.keyboard.press('Escape');
  await expect(author).toHaveAttribute('aria-expanded', 'false');
  await expect(author).toHaveValue(ADMIN.login);
  await page.keyboard.press('ArrowDown');
  await expect(author).toHaveAttribute('aria-activedescendant', /option-0$/);
  await page.keyboard.press('Enter');
  await expect(author).toHaveValue('— No author —');
  await save(page).focus();
  await page.keyboard.press('Enter');
  await saved(page);
  expect((await stored(api, `/cms/journal/posts/${id}`)).data.author).toBeNull();

  // Typing searches (debounced, on the server); Enter takes the first match.
  await author.focus();
  await page.keyboard.type(ADMIN.login);
  await expect(listbox(page, 'Author').locator('.cms-option-active')).toHaveText(ADMIN.login);
  await page.keyboard.press('Enter');
  await expect(author).toHaveValue(ADMIN.login);
  // Text that matches nothing says so and is dropped on leaving.
  await page.keyboard.type('zzzz-nobody');
  await expect(page.getByText('No results.', { exact: true }).first()).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(author).toHaveValue(ADMIN.login);
  await save(page).click();
  await saved(page);
  expect((await stored(api, `/cms/journal/posts/${id}`)).data.author).toBe(adminId);
  await api.dispose();
});

test('relation, belongsToMany: chips added by mouse and keyboard, reordered with Alt+arrows, removed; the order is saved', async ({
  page,
}) => {
  const api = await apiAs();
  const tag = uniqueTag('btm');
  const [news, opinion, events] = [await categoryId(api, 'News'), await categoryId(api, 'Opinion'), await categoryId(api, 'Events')];
  const id = await createPost(api, tag, { categories: [news] });
  await signIn(page, `${POSTS}/update/${id}`);
  await openTab(page, 'Categories');
  const input = page.getByRole('combobox', { name: 'Categories' });
  await expect(chips(page, 'Categories')).toHaveText([/News/]);

  // Mouse: the chosen category is not offered again; Opinion is picked.
  await input.click();
  const options = listbox(page, 'Categories');
  await expect(options.getByRole('option', { name: 'Opinion', exact: true })).toBeVisible();
  await expect(options.getByRole('option', { name: 'News', exact: true })).toHaveCount(0);
  await expectFieldAccessible(page, 'categories');
  await options.getByRole('option', { name: 'Opinion', exact: true }).click();
  await expect(chips(page, 'Categories')).toHaveText([/News/, /Opinion/]);

  // Keyboard: type, Down to the first match, Enter.
  await input.focus();
  await page.keyboard.type('Even');
  await expect(listbox(page, 'Categories').getByRole('option', { name: 'Events', exact: true })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(chips(page, 'Categories')).toHaveText([/News/, /Opinion/, /Events/]);
  await expect(input).toHaveValue('');

  // Events moves to the front with Alt+ArrowLeft twice, keeping the focus.
  const eventsChip = chips(page, 'Categories').filter({ hasText: 'Events' }).locator('.cms-chip-text');
  await eventsChip.focus();
  await page.keyboard.press('Alt+ArrowLeft');
  await expect(chips(page, 'Categories')).toHaveText([/News/, /Events/, /Opinion/]);
  await page.keyboard.press('Alt+ArrowLeft');
  await expect(chips(page, 'Categories')).toHaveText([/Events/, /News/, /Opinion/]);
  await expect(chips(page, 'Categories').first().locator('.cms-chip-text')).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: 'Events moved to position 1 of 3.' })).toBeAttached();
  await save(page).click();
  await saved(page);
  expect((await stored(api, `/cms/journal/posts/${id}`)).data.categories).toEqual([events, news, opinion]);

  // Removing: the chip's button (mouse), Backspace in the empty box (keyboard).
  await chips(page, 'Categories').getByRole('button', { name: 'Remove News' }).click();
  await expect(chips(page, 'Categories')).toHaveText([/Events/, /Opinion/]);
  await input.focus();
  await page.keyboard.press('Backspace');
  await expect(chips(page, 'Categories')).toHaveText([/Events/]);
  await save(page).click();
  await saved(page);
  expect((await stored(api, `/cms/journal/posts/${id}`)).data.categories).toEqual([events]);
  await page.reload();
  await openTab(page, 'Categories');
  await expect(chips(page, 'Categories')).toHaveText([/Events/]);
  await api.dispose();
});

test('relation: a locked record is marked and cannot be picked (an admin’s role beyond the editor’s permissions)', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('lk');
  const strong = await api.post(`${API}/cms/backend/roles`, {
    data: { code: `${tag}s`, name: `${tag} strong`, permissions: { 'cms.backend.manage_admins': 1, 'acme.catalog.manage_products': 1 } },
  });
  expect(strong.status(), await strong.text()).toBe(201);
  const weak = await api.post(`${API}/cms/backend/roles`, {
    data: { code: `${tag}w`, name: `${tag} weak`, permissions: { 'cms.backend.manage_admins': 1 } },
  });
  expect(weak.status(), await weak.text()).toBe(201);
  const manager = await createAccount(api, `${tag}m`, { role: (await weak.json()).data.id });
  const target = await api.post(`${API}/cms/backend/admins`, {
    data: { login: `${tag}t`, email: `${tag}t@example.com`, password: `${tag}t-password` },
  });
  expect(target.status(), await target.text()).toBe(201);
  await signIn(page, `${ADMINS}/update/${(await target.json()).data.id}`, manager);
  const role = page.getByRole('combobox', { name: 'Role' });
  await role.focus();
  await page.keyboard.type(tag);
  const locked = listbox(page, 'Role').getByRole('option', { name: new RegExp(`${tag} strong`) });
  await expect(locked).toHaveAttribute('aria-disabled', 'true');
  await expect(locked).toContainText('Locked');
  await expect(listbox(page, 'Role').getByRole('option', { name: `${tag} weak`, exact: true })).not.toHaveAttribute('aria-disabled');
  // Clicked anyway (it is aria-disabled): nothing is taken.
  await locked.click({ force: true });
  await expect(role).toHaveAttribute('aria-expanded', 'true');
  await expect(role).not.toHaveValue(`${tag} strong`);
  await api.dispose();
});

test('taglist: separator and Enter add, repeats are dropped, Backspace and the chip buttons remove; saved as an array', async ({
  page,
}) => {
  const api = await apiAs();
  const [id] = await createProducts(api, uniqueTag('tl'), 1);
  await signIn(page, `${PRODUCTS}/update/${id}`);
  const input = page.getByRole('textbox', { name: 'Features' });
  const features = () => chips(page, 'Features');

  // Keyboard only: typed with separators, a repeat and blanks.
  await input.focus();
  await page.keyboard.type(' wifi,usb , wifi,, ');
  await expect(features()).toHaveText([/wifi/, /usb/]);
  await expect(page.getByRole('status').filter({ hasText: 'The tag wifi is already in the list.' })).toBeAttached();
  await page.keyboard.type('Bluetooth');
  await page.keyboard.press('Enter');
  await expect(features()).toHaveText([/wifi/, /usb/, /Bluetooth/]);
  await expect(input).toHaveValue('');
  await page.keyboard.type('WiFi');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Backspace');
  await expect(features()).toHaveText([/wifi/, /usb/, /Bluetooth/]);
  await expectFieldAccessible(page, 'features');
  await save(page).focus();
  await page.keyboard.press('Enter');
  await saved(page);
  expect((await stored(api, `/acme/catalog/products/${id}`)).data.features).toEqual(['wifi', 'usb', 'Bluetooth']);

  // Mouse: the chip's button removes its tag; text left in the box is taken on leaving it.
  await features().getByRole('button', { name: 'Remove usb' }).click();
  await expect(features()).toHaveText([/wifi/, /Bluetooth/]);
  await input.click();
  await input.fill('hdmi');
  await save(page).click();
  await saved(page);
  expect((await stored(api, `/acme/catalog/products/${id}`)).data.features).toEqual(['wifi', 'Bluetooth', 'hdmi']);
  await page.reload();
  await expect(features()).toHaveText([/wifi/, /Bluetooth/, /hdmi/]);
  await api.dispose();
});
