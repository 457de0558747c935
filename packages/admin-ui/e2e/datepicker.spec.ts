import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { API, apiAs, createProducts, expectAccessible, screenshot, signIn, uniqueTag } from './support.ts';

/*
 * The datepicker field (docs/field-types.md, "datepicker"; docs/admin-ui.md, "Forms"): the
 * product's release date (mode date, minDate 2000-01-01) and the post's publication time (mode
 * datetime), in the English locale's format and the browser's zone set here.
 */

test.use({ timezoneId: 'Europe/Berlin' });

// Each flow saves several times and runs axe with the calendar open.
test.beforeEach(() => test.slow());

const PRODUCTS = '/backend/acme/catalog/products';
const POSTS = '/backend/cms/journal/posts';

const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true });
const saved = (page: Page) => page.getByRole('status').filter({ hasText: 'Saved.' });

test.afterEach(async ({ page, context }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await context.unrouteAll({ behavior: 'ignoreErrors' });
});

/** A product released on `day`, and its update screen's address. */
async function product(api: APIRequestContext, day: string | null): Promise<{ id: number; path: string }> {
  const [id] = await createProducts(api, uniqueTag('dp'), 1);
  const answer = await api.put(`${API}/acme/catalog/products/${id}`, { data: { release_date: day } });
  expect(answer.status(), await answer.text()).toBe(200);
  return { id: id!, path: `${PRODUCTS}/update/${id}` };
}

const stored = async (api: APIRequestContext, path: string, name: string) => (await (await api.get(`${API}/${path}`)).json()).data[name];

test('a date typed as ISO and in the display format is shown, saved and stored', async ({ page }) => {
  const api = await apiAs();
  const { id, path } = await product(api, '2021-03-15');
  await signIn(page, path);
  const input = page.getByLabel('Release date', { exact: true });
  await expect(input).toHaveValue('03/15/2021');
  await expect(page.getByText(/For example \d\d\/\d\d\/\d{4}/)).toBeVisible();
  await expectAccessible(page);

  await input.fill('2022-07-04');
  await input.press('Tab');
  await expect(input).toHaveValue('07/04/2022');
  await save(page).click();
  await expect(saved(page)).toBeVisible();
  expect(await stored(api, `acme/catalog/products/${id}`, 'release_date')).toBe('2022-07-04');

  await input.fill('12/24/2020');
  await input.press('Enter');
  await expect(input).toHaveValue('12/24/2020');
  await save(page).click();
  await expect(saved(page).filter({ hasText: 'Saved.' })).toBeVisible();
  await expect.poll(() => stored(api, `acme/catalog/products/${id}`, 'release_date')).toBe('2020-12-24');

  // Emptied: cleared.
  await input.fill('');
  await input.press('Tab');
  await save(page).click();
  await expect.poll(() => stored(api, `acme/catalog/products/${id}`, 'release_date')).toBeNull();
  await api.dispose();
});

test('the calendar by keyboard only: arrows, pages, Home and End, Enter chooses, Escape returns to the button', async ({ page }) => {
  const api = await apiAs();
  const { id, path } = await product(api, '2021-03-15');
  await signIn(page, path);
  const input = page.getByLabel('Release date', { exact: true });
  await input.focus();
  await page.keyboard.press('Tab');
  const button = page.getByRole('button', { name: 'Choose a date' });
  await expect(button).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Choose a date' });
  await expect(dialog).toBeVisible();
  const day = (name: string) => dialog.getByRole('gridcell', { name, exact: true });
  await expect(day('Monday, March 15, 2021')).toBeFocused();
  await expect(day('Monday, March 15, 2021')).toHaveAttribute('aria-selected', 'true');
  await screenshot(page, 'datepicker-calendar');
  await expectAccessible(page);

  await page.keyboard.press('ArrowRight');
  await expect(day('Tuesday, March 16, 2021')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(day('Tuesday, March 23, 2021')).toBeFocused();
  await page.keyboard.press('PageDown');
  await expect(day('Friday, April 23, 2021')).toBeFocused();
  await expect(dialog.getByRole('combobox', { name: 'Month' })).toHaveValue('4');
  await page.keyboard.press('Shift+PageUp');
  await expect(day('Thursday, April 23, 2020')).toBeFocused();
  await expect(dialog.getByRole('combobox', { name: 'Year' })).toHaveValue('2020');
  // Weeks start on Sunday (no firstDay).
  await page.keyboard.press('Home');
  await expect(day('Sunday, April 19, 2020')).toBeFocused();
  await page.keyboard.press('End');
  await expect(day('Saturday, April 25, 2020')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowUp');
  await expect(day('Friday, April 17, 2020')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(button).toBeFocused();
  await expect(input).toHaveValue('04/17/2020');

  // Escape closes without choosing, and the focus is back on the button.
  await page.keyboard.press('Enter');
  await expect(day('Friday, April 17, 2020')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(button).toBeFocused();
  await expect(input).toHaveValue('04/17/2020');

  await save(page).focus();
  await page.keyboard.press('Enter');
  await expect(saved(page)).toBeVisible();
  expect(await stored(api, `acme/catalog/products/${id}`, 'release_date')).toBe('2020-04-17');
  await api.dispose();
});

test('the calendar by mouse: month and year selects, a day clicked', async ({ page }) => {
  const api = await apiAs();
  const { id, path } = await product(api, null);
  await signIn(page, path);
  const input = page.getByLabel('Release date', { exact: true });
  await expect(input).toHaveValue('');
  await page.getByRole('button', { name: 'Choose a date' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose a date' });
  await dialog.getByRole('combobox', { name: 'Month' }).selectOption({ label: 'June' });
  await dialog.getByRole('combobox', { name: 'Year' }).selectOption('2019');
  await dialog.getByRole('gridcell', { name: 'Monday, June 10, 2019', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(input).toHaveValue('06/10/2019');
  await save(page).click();
  await expect(saved(page)).toBeVisible();
  expect(await stored(api, `acme/catalog/products/${id}`, 'release_date')).toBe('2019-06-10');

  // Next month by its button, Cancel leaves the value alone.
  await page.getByRole('button', { name: 'Choose a date' }).click();
  await dialog.getByRole('button', { name: 'Next month' }).click();
  await expect(dialog.getByRole('combobox', { name: 'Month' })).toHaveValue('7');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(input).toHaveValue('06/10/2019');
  await api.dispose();
});

test('minDate: earlier days cannot be chosen; a date typed before it is refused under the field; unreadable text is kept', async ({
  page,
}) => {
  const api = await apiAs();
  const { id, path } = await product(api, '2000-01-05');
  await signIn(page, path);
  const input = page.getByLabel('Release date', { exact: true });
  await page.getByRole('button', { name: 'Choose a date' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose a date' });
  await expect(dialog.getByRole('gridcell', { name: 'Wednesday, January 5, 2000', exact: true })).toBeFocused();
  // A month back stops at minDate.
  await page.keyboard.press('PageUp');
  await expect(dialog.getByRole('gridcell', { name: 'Saturday, January 1, 2000', exact: true })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(dialog.getByRole('gridcell', { name: 'Saturday, January 1, 2000', exact: true })).toBeFocused();
  await expect(dialog.getByRole('button', { name: 'Previous month' })).toHaveAttribute('aria-disabled', 'true');
  await expect(dialog.getByRole('combobox', { name: 'Year' }).locator('option').first()).toHaveText('2000');
  await page.keyboard.press('Escape');

  await input.fill('12/31/1999');
  await input.press('Tab');
  await save(page).click();
  await expect(page.getByText('The date may not be before 2000-01-01.', { exact: true })).toBeVisible();
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  expect(await stored(api, `acme/catalog/products/${id}`, 'release_date')).toBe('2000-01-05');

  // Text that is no date stays as typed, is marked, and the server answers for it.
  await input.fill('next spring');
  await input.press('Tab');
  await expect(input).toHaveValue('next spring');
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('This is not understood as a date.', { exact: false })).toBeVisible();
  await save(page).click();
  await expect(page.getByText('Send a date as YYYY-MM-DD.', { exact: true })).toBeVisible();
  await expect(input).toHaveValue('next spring');
  await expectAccessible(page);
  expect(await stored(api, `acme/catalog/products/${id}`, 'release_date')).toBe('2000-01-05');
  await api.dispose();
});

test('a date-time: shown in the browser’s zone, kept exactly when untouched, typed and chosen with the time selects', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('dpt');
  const created = await api.post(`${API}/cms/journal/posts`, {
    data: { title: `${tag} post`, slug: tag.toLowerCase(), published_at: '2026-09-28T12:30:35.026Z' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).data.id as number;
  const record = `cms/journal/posts/${id}`;
  await signIn(page, `${POSTS}/update/${id}`);

  // Another field saved: the date-time goes back as served (no reformatting).
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill(`${tag} renamed`);
  await save(page).click();
  await expect(saved(page)).toBeVisible();
  expect(await stored(api, record, 'title')).toBe(`${tag} renamed`);
  expect(await stored(api, record, 'published_at')).toBe('2026-09-28T12:30:35.026Z');

  await page.getByRole('tab', { name: 'Manage' }).click();
  const input = page.getByLabel('Published', { exact: true });
  await expect(input).toHaveValue('09/28/2026, 14:30');
  // Left and typed again as shown: still untouched.
  await input.fill('09/28/2026, 14:30');
  await input.press('Tab');
  await expect(page.getByText('Unsaved changes')).toHaveCount(0);
  await input.fill('09/29/2026, 8:15');
  await input.press('Tab');
  await expect(input).toHaveValue('09/29/2026, 08:15');
  await save(page).click();
  await expect(saved(page)).toBeVisible();
  await expect.poll(() => stored(api, record, 'published_at')).toBe('2026-09-29T06:15:00.000Z');

  // The calendar with its time selects (keyboard only).
  await input.focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Choose a date' });
  await expect(dialog.getByRole('gridcell', { name: 'Tuesday, September 29, 2026', exact: true })).toBeFocused();
  await expect(dialog.getByLabel('Hour')).toHaveValue('8');
  await expect(dialog.getByLabel('Minute')).toHaveValue('15');
  await expectAccessible(page);
  await page.keyboard.press('ArrowRight');
  await dialog.getByLabel('Hour').selectOption('18');
  await dialog.getByLabel('Minute').selectOption('45');
  await dialog.getByRole('button', { name: 'Choose', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(input).toHaveValue('09/30/2026, 18:45');
  await save(page).click();
  await expect(saved(page)).toBeVisible();
  await expect.poll(() => stored(api, record, 'published_at')).toBe('2026-09-30T16:45:00.000Z');
  await api.dispose();
});
