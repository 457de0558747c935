import { expect, type Page, test } from '@playwright/test';
import { API, apiAs, createProducts, signIn, uniqueTag } from './support.ts';

const PRODUCTS = '/backend/acme/catalog/products';

const search = (page: Page) => page.getByRole('searchbox', { name: 'Search' });
const rows = (page: Page) => page.locator('table.cms-table tbody tr');

// A route still answering when its test ends is dropped, not reported (the page is closed anyway).
test.afterEach(async ({ page, context }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await context.unrouteAll({ behavior: 'ignoreErrors' });
});

test('search: debounced into the URL, Back and reload restore it, an empty search says so', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('srch');
  await createProducts(api, tag, 3);
  await signIn(page, PRODUCTS);
  await search(page).fill(tag);
  await expect(rows(page)).toHaveCount(3);
  await expect(page).toHaveURL(new RegExp(`search=${tag}`));
  await search(page).fill(`${tag}-nothing`);
  await expect(page.getByText('Nothing matches your search.')).toBeVisible();
  await expect(page.getByText('Try other words, or clear the filters.')).toBeVisible();
  await page.reload();
  await expect(search(page)).toHaveValue(`${tag}-nothing`);
  await expect(page.getByText('Nothing matches your search.')).toBeVisible();
  await page
    .getByRole('link', { name: 'Dashboard' })
    .or(page.getByRole('link', { name: 'Admin' }))
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.goBack();
  await expect(search(page)).toHaveValue(`${tag}-nothing`);
  await api.dispose();
});

test('keyboard only: search, sort and select with the keyboard', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('kbd');
  await createProducts(api, tag, 3);
  await signIn(page, PRODUCTS);
  await search(page).focus();
  await page.keyboard.type(tag);
  await expect(rows(page)).toHaveCount(3);
  const nameHeader = page.getByRole('columnheader', { name: 'Name' });
  await nameHeader.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(nameHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(rows(page).first()).toContainText(`${tag} 3`);
  await page.keyboard.press('Enter');
  await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(rows(page).first()).toContainText(`${tag} 1`);
  await page
    .getByRole('checkbox', { name: /^Select row/ })
    .first()
    .focus();
  await page.keyboard.press('Space');
  await expect(page.getByText('1 selected')).toBeVisible();
  await api.dispose();
});

test('sort by a column header: aria-sort and the order follow, and the URL keeps them', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('sort');
  await createProducts(api, tag, 3, (n) => `${tag} ${['b', 'c', 'a'][n - 1]}`);
  await signIn(page, `${PRODUCTS}?search=${tag}`);
  const header = page.getByRole('columnheader', { name: 'Name' });
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect(rows(page).first()).toContainText(`${tag} a`);
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect(rows(page).first()).toContainText(`${tag} c`);
  await expect(page).toHaveURL(/sort=name&dir=desc/);
  await api.dispose();
});

test('filters: a group filter shows a chip that clears it; a date range narrows the list', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('flt');
  const [eur] = await createProducts(api, tag, 2);
  await api.put(`${API}/acme/catalog/products/${eur}`, { data: { currency: 'USD' } });
  await signIn(page, `${PRODUCTS}?search=${tag}`);
  await expect(rows(page)).toHaveCount(2);
  await page.locator('details.cms-filter summary', { hasText: 'Currency' }).click();
  await page.getByRole('checkbox', { name: 'USD' }).check();
  await expect(rows(page)).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('checkbox', { name: 'USD' })).toBeHidden();
  await expect(page).toHaveURL(/filter%5Bcurrency%5D=USD/);
  const chip = page.getByRole('button', { name: 'Remove the filter Currency' });
  await expect(chip).toContainText('Currency: USD');
  await chip.click();
  await expect(rows(page)).toHaveCount(2);
  await page.getByRole('group', { name: 'Release date' }).getByLabel('From').fill('2999-01-01');
  await page.getByRole('group', { name: 'Release date' }).getByLabel('From').dispatchEvent('change');
  await expect(page.getByText('Nothing matches your search.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows(page)).toHaveCount(2);
  await api.dispose();
});

test('paging and per page: pages of 20, the next page, 50 per page kept for this admin', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('page');
  await createProducts(api, tag, 23);
  await signIn(page, `${PRODUCTS}?search=${tag}`);
  await expect(rows(page)).toHaveCount(20);
  await expect(page.getByText('23 records')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(rows(page)).toHaveCount(3);
  await expect(page).toHaveURL(/page=2/);
  await page.getByLabel('Per page').selectOption('50');
  await expect(rows(page)).toHaveCount(23);
  await page.goto(`${PRODUCTS}?search=${tag}`);
  await expect(rows(page)).toHaveCount(23);
  await api.dispose();
});

test('select all and shift-range, then bulk delete with its confirm text: gone over the API too', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('bulk');
  const ids = await createProducts(api, tag, 5);
  await signIn(page, `${PRODUCTS}?search=${tag}&sort=name&dir=asc`);
  await expect(rows(page)).toHaveCount(5);
  const boxes = page.getByRole('checkbox', { name: /^Select row/ });
  await boxes.nth(0).click();
  await boxes.nth(2).click({ modifiers: ['Shift'] });
  await expect(page.getByText('3 selected')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await expect(page.getByText('5 selected')).toBeVisible();
  await boxes.nth(4).click();
  await expect(page.getByText('4 selected')).toBeVisible();
  await page.getByRole('button', { name: 'Delete selected' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Delete the 4 selected records?');
  await dialog.getByRole('button', { name: 'Delete selected' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Deleted 4 records.' })).toBeVisible();
  await expect(rows(page)).toHaveCount(1);
  for (const [index, id] of ids.entries()) {
    const answer = await api.get(`${API}/acme/catalog/products/${id}`);
    expect(answer.status()).toBe(index === 4 ? 200 : 404);
  }
  await api.dispose();
});

test('keyboard only: select rows and bulk delete', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('kdel');
  const ids = await createProducts(api, tag, 2);
  await signIn(page, `${PRODUCTS}?search=${tag}`);
  await expect(rows(page)).toHaveCount(2);
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByText('2 selected')).toBeVisible();
  await page.getByRole('button', { name: 'Delete selected' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Delete selected' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Nothing matches your search.')).toBeVisible();
  for (const id of ids) expect((await api.get(`${API}/acme/catalog/products/${id}`)).status()).toBe(404);
  await api.dispose();
});

test('a cancelled bulk delete deletes nothing', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('keep');
  const [id] = await createProducts(api, tag, 1);
  await signIn(page, `${PRODUCTS}?search=${tag}`);
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await page.getByRole('button', { name: 'Delete selected' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(rows(page)).toHaveCount(1);
  expect((await api.get(`${API}/acme/catalog/products/${id}`)).status()).toBe(200);
  await api.dispose();
});

test('HTML in record values is shown as text', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('html');
  const hostile = `<img src=x onerror="window.__owned=1">${tag}`;
  await createProducts(api, tag, 1, () => hostile);
  await signIn(page, `${PRODUCTS}?search=${tag}`);
  await expect(page.getByRole('link', { name: hostile })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __owned?: number }).__owned)).toBeUndefined();
  expect(await page.locator('table img').count()).toBe(0);
  await api.dispose();
});

test('a row links to its record through recordUrl', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('rec');
  const [id] = await createProducts(api, tag, 1);
  await signIn(page, `${PRODUCTS}?search=${tag}`);
  await page.getByRole('link', { name: `${tag} 1` }).click();
  await expect(page).toHaveURL(new RegExp(`/backend/acme/catalog/products/update/${id}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Edit' })).toBeFocused();
  await expect(page.getByLabel('Name')).toHaveValue(`${tag} 1`);
  await api.dispose();
});

test('a toolbar action runs and says what it did; row states are text, not only colour', async ({ page }) => {
  await signIn(page, '/backend/cms/journal/posts');
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
  // Demo posts 10 and 11 are disabled (archived): their state is written out.
  await expect(page.locator('.cms-row-disabled .cms-state').first()).toHaveText('Disabled');
  await page.getByRole('button', { name: 'Rebuild search index' }).click();
  await expect(page.locator('.cms-status')).not.toBeEmpty();
});

test('the list setup hides a column for this admin, and the choice stays', async ({ page }) => {
  await signIn(page, PRODUCTS);
  await expect(page.getByRole('columnheader', { name: 'SKU' })).toBeVisible();
  await page.locator('details.cms-setup summary').click();
  await page.getByRole('group', { name: 'Columns' }).getByRole('checkbox', { name: 'SKU' }).uncheck();
  await expect(page.getByRole('columnheader', { name: 'SKU' })).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Columns' }).getByRole('checkbox', { name: 'Name' })).toBeDisabled();
  await page.reload();
  await expect(page.getByRole('columnheader', { name: 'Name' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'SKU' })).toHaveCount(0);
  await page.locator('details.cms-setup summary').click();
  await page.getByRole('group', { name: 'Columns' }).getByRole('checkbox', { name: 'SKU' }).check();
  await expect(page.getByRole('columnheader', { name: 'SKU' })).toBeVisible();
});

test('a bulk delete of a selection that is no longer all there is refused as a whole, and says so', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('gone');
  const [first, second] = await createProducts(api, tag, 2);
  await signIn(page, `${PRODUCTS}?search=${tag}`);
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  // Another admin deletes one of them meanwhile.
  expect((await api.delete(`${API}/acme/catalog/products/${first}`)).status()).toBe(200);
  await page.getByRole('button', { name: 'Delete selected' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete selected' }).click();
  await expect(page.locator('.cms-status')).toHaveText(/Nothing was changed/);
  await expect(rows(page)).toHaveCount(1);
  expect((await api.get(`${API}/acme/catalog/products/${second}`)).status()).toBe(200);
  await api.dispose();
});

test('an estimated total reads "about N" and paging goes by a page number', async ({ page }) => {
  await signIn(page, PRODUCTS);
  // The server estimates totals of large unfiltered lists (docs/performance.md, "Counts"); here one says so.
  await page.route(
    (url) => url.pathname === `${API}/acme/catalog/products`,
    async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      body.meta = { ...body.meta, total: 1234567, total_estimated: true, last_page: 61729 };
      await route.fulfill({ response, json: body });
    },
  );
  await page.reload();
  await expect(page.getByText('About 1,234,567 records')).toBeVisible();
  const pageInput = page.getByRole('textbox', { name: 'Page' });
  await pageInput.fill('500');
  await pageInput.press('Enter');
  await expect(page).toHaveURL(/page=500/);
});

test('keyboard only: arrows move between the rows of the grid', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('grid');
  await createProducts(api, tag, 3);
  await signIn(page, `${PRODUCTS}?search=${tag}&sort=name&dir=asc`);
  await page.getByRole('link', { name: `${tag} 1` }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('link', { name: `${tag} 2` })).toBeFocused();
  await page.keyboard.press('Control+End');
  await expect(page.getByRole('link', { name: `${tag} 3` })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('link', { name: `${tag} 2` })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('checkbox', { name: /^Select row/ }).nth(1)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('checkbox', { name: /^Select row/ }).nth(2)).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByText('1 selected')).toBeVisible();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Edit' })).toBeFocused();
  await api.dispose();
});

const POSTS = '/backend/cms/journal/posts';

/** Draft journal posts titled `{tag} {n}`. */
async function createPosts(api: Awaited<ReturnType<typeof apiAs>>, tag: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let n = 1; n <= count; n++) {
    const answer = await api.post(`${API}/cms/journal/posts`, {
      data: { title: `${tag} ${n}`, slug: `${tag}-${n}`, content: 'x', status: 'draft' },
    });
    expect(answer.status(), await answer.text()).toBe(201);
    ids.push((await answer.json()).data.id);
  }
  return ids;
}

test('a bulk action asks with its confirm text, runs, and says what it did: published over the API too', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('pub');
  const ids = await createPosts(api, tag, 2);
  await signIn(page, `${POSTS}?search=${tag}`);
  await expect(rows(page)).toHaveCount(2);
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await page.getByRole('region', { name: 'Selection' }).getByRole('button', { name: 'Publish', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Publish the selected posts?');
  await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.locator('.cms-status')).not.toBeEmpty();
  for (const id of ids) expect((await (await api.get(`${API}/cms/journal/posts/${id}`)).json()).data.status).toBe('published');
  await api.dispose();
});

test('keyboard only: filter with a group filter and clear it', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('kflt');
  const [usd] = await createProducts(api, tag, 2);
  await api.put(`${API}/acme/catalog/products/${usd}`, { data: { currency: 'USD' } });
  await signIn(page, `${PRODUCTS}?search=${tag}`);
  await expect(rows(page)).toHaveCount(2);
  await page.locator('details.cms-filter summary', { hasText: 'Currency' }).focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('checkbox', { name: 'USD' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(rows(page)).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(page.locator('details.cms-filter summary', { hasText: 'Currency' })).toBeFocused();
  await page.getByRole('button', { name: 'Remove the filter Currency' }).focus();
  await page.keyboard.press('Enter');
  await expect(rows(page)).toHaveCount(2);
  await api.dispose();
});

test('the header partial shows above the list, and a row action with a target opens it', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('ract');
  const [id] = await createProducts(api, tag, 1);
  await signIn(page, `${PRODUCTS}?search=${tag}`);
  await expect(page.locator('cms-partial p.acme-list-header')).toHaveText(
    'Prices are in euros; each product’s cost is in its own currency.',
  );
  await page.getByRole('link', { name: `Preview: record ${id}` }).click();
  await expect(page).toHaveURL(new RegExp(`/backend/acme/catalog/products/preview/${id}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Preview' })).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveAttribute('readonly');
  await api.dispose();
});

test('a partial is rebuilt from its node tree through the allowlist: nothing in it runs', async ({ page }) => {
  await page.route(
    (url) => url.pathname.endsWith('/partials/list_header'),
    (route) =>
      route.fulfill({
        json: {
          data: {
            nodes: [
              {
                tag: 'p',
                attrs: { onclick: 'window.__owned=1', style: 'color:red', class: 'kept' },
                children: [{ text: '<b>not bold</b>' }],
              },
              { tag: 'a', attrs: { href: 'javascript:window.__owned=2' }, children: [{ text: 'a link' }] },
              { tag: 'script', attrs: {}, children: [{ text: 'window.__owned=3' }] },
              { tag: 'img', attrs: { src: 'data:image/svg+xml,<svg onload=alert(1)>', alt: 'x' }, children: [] },
            ],
          },
          meta: {},
        },
      }),
  );
  await signIn(page, PRODUCTS);
  const partial = page.locator('cms-partial');
  await expect(partial.locator('p.kept')).toHaveText('<b>not bold</b>');
  expect(await partial.locator('p.kept').getAttribute('onclick')).toBeNull();
  expect(await partial.locator('p.kept').getAttribute('style')).toBeNull();
  expect(await partial.locator('a').getAttribute('href')).toBeNull();
  await expect(partial.locator('script, b')).toHaveCount(0);
  // A `data:` image follows the content image rule: shown as its alt text, never loaded (docs/admin-ui.md, "Security").
  await expect(partial.locator('img')).toHaveCount(0);
  await partial.locator('p.kept').click();
  await partial.locator('a').click();
  expect(await page.evaluate(() => (window as unknown as { __owned?: number }).__owned)).toBeUndefined();
});

test('a row action without a target runs the record action; a second run is refused and says so', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('arch');
  const [id] = await createPosts(api, tag, 1);
  // The journal declares no row action: this list schema offers its record action "archive" as one.
  await page.route(
    (url) => url.pathname === `${API}/cms/journal/posts/schema/list`,
    async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      body.data.rowActions = [{ name: 'archive', label: 'Archive' }];
      await route.fulfill({ response, json: body });
    },
  );
  await signIn(page, `${POSTS}?search=${tag}`);
  const archive = page.getByRole('button', { name: `Archive: record ${id}` });
  await archive.click();
  await expect(page.locator('.cms-status')).toContainText('is archived');
  expect((await (await api.get(`${API}/cms/journal/posts/${id}`)).json()).data.status).toBe('archived');
  await archive.click();
  await expect(page.locator('.cms-status')).toHaveText('This action does not apply to this record now. Nothing was changed.');
  await api.dispose();
});
