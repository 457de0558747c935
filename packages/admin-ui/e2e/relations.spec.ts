import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { API, apiAs, createAccount, createProducts, expectAccessible, screenshot, signIn, uniqueTag } from './support.ts';

/*
 * The relation manager (docs/admin-ui.md, "Relation manager"): the journal's comments (hasMany,
 * manage form, every toolbar button) and the catalog's accessories (belongsToMany with a pivot
 * quantity), on saved records and before the first save (deferred under the form session key).
 */

const PRODUCTS = '/backend/acme/catalog/products';
const POSTS = '/backend/cms/journal/posts';

const panel = (page: Page) => page.locator('cms-relation-manager');
const openDialog = (page: Page) => page.locator('dialog[open]').last();
/** A live region saying exactly this (a message may end in a no-break space when said twice). */
const status = (page: Page, text: string) =>
  page.getByRole('status').filter({ hasText: new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) });

async function post(api: APIRequestContext, tag: string): Promise<number> {
  const answer = await api.post(`${API}/cms/journal/posts`, { data: { title: `${tag} post`, slug: tag } });
  expect(answer.status(), await answer.text()).toBe(201);
  return (await answer.json()).data.id as number;
}

async function comment(api: APIRequestContext, postId: number, author: string, body = 'A comment.'): Promise<number> {
  const answer = await api.post(`${API}/cms/journal/posts/${postId}/relations/comments/records`, { data: { author_name: author, body } });
  expect(answer.status(), await answer.text()).toBe(201);
  return (await answer.json()).data.id as number;
}

async function related(api: APIRequestContext, base: string): Promise<Record<string, unknown>[]> {
  const answer = await api.get(`${API}${base}`, { params: { per_page: 20 } });
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()).data;
}

async function openComments(page: Page): Promise<Locator> {
  await page.getByRole('tab', { name: 'Comments' }).click();
  await expect(panel(page).getByRole('button', { name: 'Create' })).toBeVisible();
  return panel(page);
}

test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('the view list with its columns, search and the declared toolbar buttons', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('rvl');
  const id = await post(api, tag);
  await comment(api, id, `${tag} Ada`, 'First!');
  await comment(api, id, `${tag} Grace`, 'Second.');
  await comment(api, id, `${tag} Linus`, 'Third.');
  await signIn(page, `${POSTS}/update/${id}`);
  const comments = await openComments(page);
  for (const name of ['Create', 'Link', 'Unlink selected', 'Delete selected'])
    await expect(comments.getByRole('button', { name, exact: true })).toBeVisible();
  const table = comments.getByRole('table');
  await expect(table.getByRole('columnheader')).toContainText(['', 'Author', 'Comment', 'Approved', 'Written']);
  await expect(table.getByRole('row')).toHaveCount(4);
  await comments.getByRole('searchbox').fill(`${tag} grace`);
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('Second.');
  await expect(status(page, '1 related record.')).toBeAttached();
  await comments.getByRole('searchbox').fill('');
  await expect(table.getByRole('row')).toHaveCount(4);
  // Sorted by the author, both ways.
  await table.getByRole('button', { name: 'Author' }).click();
  await expect(table.getByRole('row').nth(1)).toContainText(`${tag} Ada`);
  await table.getByRole('button', { name: 'Author' }).click();
  await expect(table.getByRole('row').nth(1)).toContainText(`${tag} Linus`);
  await expect(table.getByRole('columnheader', { name: 'Author' })).toHaveAttribute('aria-sort', 'descending');
  await screenshot(page, 'relations-panel');
  await api.dispose();
});

test('link through the candidate picker (5 a page, search, paging), then unlink with a confirm', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('rlk');
  const [host] = await createProducts(api, uniqueTag('rhs'), 1);
  await createProducts(api, tag, 7);
  await signIn(page, `${PRODUCTS}/update/${host}`);
  await expect(panel(page).getByText('There are no related records.')).toBeVisible();
  await panel(page).getByRole('button', { name: 'Link', exact: true }).click();
  const picker = openDialog(page);
  await expect(picker.getByRole('heading', { name: 'Link', exact: true })).toBeVisible();
  await expect(picker.getByLabel('Search records to link…')).toBeFocused();
  await picker.getByLabel('Search records to link…').fill(tag);
  await expect(picker.getByRole('status')).toHaveText('7 records can be linked.');
  await expect(picker.getByRole('row')).toHaveCount(6);
  await expect(picker.getByText('Page 1 of 2')).toBeVisible();
  await picker.getByRole('checkbox', { name: `Select ${tag} 1` }).check();
  await picker.getByRole('button', { name: 'Next' }).click();
  await expect(picker.getByText('Page 2 of 2')).toBeVisible();
  await expect(picker.getByRole('row')).toHaveCount(3);
  await picker.getByRole('checkbox', { name: `Select ${tag} 7` }).check();
  await expect(picker.getByText('2 selected')).toBeVisible();
  await screenshot(page, 'relations-picker');
  await picker.getByRole('button', { name: 'Link', exact: true }).click();
  await expect(picker).toBeHidden();
  await expect(status(page, '2 records linked.')).toBeAttached();
  await expect(panel(page).getByRole('button', { name: 'Link', exact: true })).toBeFocused();
  const rows = panel(page).getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(3);
  expect((await related(api, `/acme/catalog/products/${host}/relations/accessories`)).map((row) => row.name).sort()).toEqual([
    `${tag} 1`,
    `${tag} 7`,
  ]);
  // Linked rows are no longer candidates.
  await panel(page).getByRole('button', { name: 'Link', exact: true }).click();
  await openDialog(page).getByLabel('Search records to link…').fill(tag);
  await expect(openDialog(page).getByRole('status')).toHaveText('5 records can be linked.');
  await openDialog(page).getByRole('button', { name: 'Cancel' }).click();
  // Unlink, after a confirm; Cancel first changes nothing.
  await panel(page)
    .getByRole('checkbox', { name: `Select ${tag} 1` })
    .check();
  await panel(page).getByRole('button', { name: 'Unlink selected' }).click();
  const confirm = openDialog(page);
  await expect(confirm).toContainText('Unlink the selected record?');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(rows).toHaveCount(3);
  await panel(page).getByRole('button', { name: 'Unlink selected' }).click();
  await openDialog(page).getByRole('button', { name: 'Unlink selected' }).click();
  await expect(status(page, 'Unlinked.')).toBeAttached();
  await expect(rows).toHaveCount(2);
  // The button that asked is disabled now: the focus stays in the toolbar.
  await expect(panel(page).getByRole('button', { name: 'Link', exact: true })).toBeFocused();
  expect((await related(api, `/acme/catalog/products/${host}/relations/accessories`)).map((row) => row.name)).toEqual([`${tag} 7`]);
  await api.dispose();
});

test('hasMany: a comment without a post is a candidate, and linking adopts it', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('rho');
  const other = await post(api, `${tag}o`);
  const orphan = await comment(api, other, `${tag} Orphan`);
  const unlink = await api.post(`${API}/cms/journal/posts/${other}/relations/comments/unlink`, { data: { ids: [orphan] } });
  expect(unlink.status(), await unlink.text()).toBe(200);
  const id = await post(api, tag);
  await signIn(page, `${POSTS}/update/${id}`);
  const comments = await openComments(page);
  await comments.getByRole('button', { name: 'Link', exact: true }).click();
  await openDialog(page).getByLabel('Search records to link…').fill(`${tag} Orphan`);
  await openDialog(page)
    .getByRole('checkbox', { name: `Select ${tag} Orphan` })
    .check();
  await openDialog(page).getByRole('button', { name: 'Link', exact: true }).click();
  await expect(status(page, 'Linked.')).toBeAttached();
  await expect(comments.getByRole('table')).toContainText(`${tag} Orphan`);
  expect((await related(api, `/cms/journal/posts/${id}/relations/comments`)).map((row) => row.id)).toEqual([orphan]);
  await api.dispose();
});

test('create and update a child in the manage dialog (422 under its fields), then delete it with a confirm', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('rcu');
  const id = await post(api, tag);
  await signIn(page, `${POSTS}/update/${id}`);
  const comments = await openComments(page);
  await comments.getByRole('button', { name: 'Create' }).click();
  const dialog = openDialog(page);
  await expect(dialog.getByRole('heading', { name: 'Create a record' })).toBeVisible();
  await expect(dialog.getByLabel('Author')).toBeFocused();
  // The switch opens off, as the column's default says (`p.boolean().default(false)`, no form `default`).
  const approved = dialog.getByRole('switch', { name: 'Approved' });
  await expect(approved).toBeVisible();
  expect(await approved.evaluate((input: HTMLInputElement) => [input.checked, input.indeterminate])).toEqual([false, false]);
  // Nothing typed: the server's 422 under each field, the focus on the first.
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByLabel('Author')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.locator('.cms-field-error').first()).toContainText(/required/i);
  await expect(dialog.getByLabel('Author')).toBeFocused();
  await dialog.getByLabel('Author').fill(`${tag} Ada`);
  await dialog.getByLabel('Comment').fill('Written in the dialog.');
  await screenshot(page, 'relations-create');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(status(page, 'Created.')).toBeAttached();
  await expect(comments.getByRole('button', { name: 'Create' })).toBeFocused();
  await expect(comments.getByRole('table')).toContainText('Written in the dialog.');
  // Update: the dialog shows the stored values.
  await comments.getByRole('button', { name: `Edit: ${tag} Ada` }).click();
  const edit = openDialog(page);
  await expect(edit.getByRole('heading', { name: 'Edit the record' })).toBeVisible();
  await expect(edit.getByLabel('Comment')).toHaveValue('Written in the dialog.');
  await edit.getByLabel('Comment').fill('Changed in the dialog.');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(status(page, 'Saved.')).toBeAttached();
  await expect(comments.getByRole('table')).toContainText('Changed in the dialog.');
  const stored = await related(api, `/cms/journal/posts/${id}/relations/comments`);
  // The switch was left alone: saved as the default it opened with.
  expect(stored.map((row) => [row.author_name, row.body, row.is_approved])).toEqual([[`${tag} Ada`, 'Changed in the dialog.', false]]);
  // Delete, after a confirm.
  await comments.getByRole('checkbox', { name: `Select ${tag} Ada` }).check();
  await comments.getByRole('button', { name: 'Delete selected' }).click();
  await expect(openDialog(page)).toContainText('Delete the selected record?');
  await openDialog(page).getByRole('button', { name: 'Delete selected' }).click();
  await expect(status(page, 'Deleted.')).toBeAttached();
  await expect(comments.getByText('There are no related records.')).toBeVisible();
  expect(await related(api, `/cms/journal/posts/${id}/relations/comments`)).toEqual([]);
  await api.dispose();
});

test("a child form uploads under its own key: the photo of a new comment goes with the comment's save", async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('rcf');
  const id = await post(api, tag);
  await signIn(page, `${POSTS}/update/${id}`);
  const comments = await openComments(page);
  await comments.getByRole('button', { name: 'Create' }).click();
  const dialog = openDialog(page);
  await dialog.getByLabel('Author').fill(`${tag} Flo`);
  await dialog.getByLabel('Comment').fill('With a photo.');
  const pixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 'base64');
  const uploaded = page.waitForRequest(
    (request) => request.method() === 'POST' && /\/relations\/comments\/records\/0\/files\/photo$/.test(request.url()),
  );
  const chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: /choose a file/i }).click();
  await (await chooser).setFiles({ name: 'face.png', mimeType: 'image/png', buffer: pixel });
  const upload = await uploaded;
  const key = upload.headers()['x-child-session-key'];
  expect(key).toMatch(/\S{16,}/);
  expect((await upload.response())?.status()).toBe(201);
  await expect(dialog.getByText('face.png', { exact: true })).toBeVisible();
  // The comment's save carries the same child key, which attaches the photo to the new comment.
  const saved = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/relations/comments/records'));
  await dialog.getByRole('button', { name: 'Create' }).click();
  expect((await saved).headers()['x-child-session-key']).toBe(key);
  expect((await (await saved).response())?.status()).toBe(201);
  await expect(dialog).toBeHidden();
  await expect(comments.getByRole('table')).toContainText('With a photo.');
  await api.dispose();
});

test('pivot edit: the quantity of an accessory, 1 to 99, a 422 shown in the dialog', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('rpv');
  const [host, accessory] = await createProducts(api, tag, 2);
  const link = await api.post(`${API}/acme/catalog/products/${host}/relations/accessories/link`, { data: { ids: [accessory] } });
  expect(link.status(), await link.text()).toBe(200);
  await signIn(page, `${PRODUCTS}/update/${host}`);
  await panel(page)
    .getByRole('button', { name: `Edit: ${tag} 2` })
    .click();
  const dialog = openDialog(page);
  await expect(dialog.getByRole('heading', { name: `Edit the link: ${tag} 2` })).toBeVisible();
  await expect(dialog.getByLabel('Quantity')).toHaveValue('1');
  await dialog.getByLabel('Quantity').fill('100');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByLabel('Quantity')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.locator('.cms-field-error')).not.toBeEmpty();
  await screenshot(page, 'relations-pivot-422');
  await expectAccessible(page);
  await dialog.getByLabel('Quantity').fill('5');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(status(page, 'Saved.')).toBeAttached();
  const pivot = await (await api.get(`${API}/acme/catalog/products/${host}/relations/accessories/pivot/${accessory}`)).json();
  expect(pivot.data.quantity).toBe(5);
  await api.dispose();
});

test('deferred before the first save: a comment and an accessory wait as pending rows, survive a reload, and the save applies them', async ({
  page,
}) => {
  test.slow();
  const api = await apiAs();
  const tag = uniqueTag('rdf');
  const [accessory] = await createProducts(api, tag, 1);
  page.on('dialog', (dialog) => void dialog.accept());
  const hasDraft = () => page.evaluate(() => Object.keys(localStorage).some((key) => key.startsWith('cms-admin:draft:')));

  // A new post: a comment created before the first save.
  await signIn(page, `${POSTS}/create`);
  await page.getByLabel('Title').fill(`${tag} new post`);
  let comments = await openComments(page);
  await expect(comments.getByText('Changes here are kept until the record is saved')).toBeVisible();
  await comments.getByRole('button', { name: 'Create' }).click();
  await openDialog(page).getByLabel('Author').fill(`${tag} Early`);
  await openDialog(page).getByLabel('Comment').fill('Before the post existed.');
  await openDialog(page).getByRole('button', { name: 'Create' }).click();
  await expect(comments.getByRole('row').filter({ hasText: `${tag} Early` })).toContainText('Pending');
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await expect.poll(hasDraft).toBe(true);
  await page.reload();
  await page.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByLabel('Title')).toHaveValue(`${tag} new post`);
  comments = await openComments(page);
  await expect(comments.getByRole('row').filter({ hasText: `${tag} Early` })).toContainText('Pending');
  await screenshot(page, 'relations-deferred');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(/\/update\/\d+$/);
  const postId = Number(page.url().split('/').pop());
  expect((await related(api, `/cms/journal/posts/${postId}/relations/comments`)).map((row) => row.author_name)).toEqual([`${tag} Early`]);

  // A new product: an accessory linked before the first save.
  await page.goto(`${PRODUCTS}/create`);
  await page.getByLabel('Name').fill(`${tag} new product`);
  await page.getByLabel('SKU').fill(`${tag}-new`.toUpperCase());
  await panel(page).getByRole('button', { name: 'Link', exact: true }).click();
  await openDialog(page).getByLabel('Search records to link…').fill(`${tag} 1`);
  await openDialog(page)
    .getByRole('checkbox', { name: `Select ${tag} 1` })
    .check();
  await openDialog(page).getByRole('button', { name: 'Link', exact: true }).click();
  await expect(
    panel(page)
      .getByRole('row')
      .filter({ hasText: `${tag} 1` }),
  ).toContainText('Pending');
  await expect.poll(hasDraft).toBe(true);
  await page.reload();
  await page.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByLabel('Name')).toHaveValue(`${tag} new product`);
  await expect(
    panel(page)
      .getByRole('row')
      .filter({ hasText: `${tag} 1` }),
  ).toContainText('Pending');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(/\/update\/\d+$/);
  const productId = Number(page.url().split('/').pop());
  expect((await related(api, `/acme/catalog/products/${productId}/relations/accessories`)).map((row) => row.id)).toEqual([accessory]);
  // Saved: the rows are no longer pending.
  await expect(
    panel(page)
      .getByRole('row')
      .filter({ hasText: `${tag} 1` }),
  ).not.toContainText('Pending');
  await api.dispose();
});

test('closing a dialog that holds changes asks: stay, discard, save', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('rgd');
  const id = await post(api, tag);
  // Opened from the list, so Back stays in the application.
  await signIn(page, `${POSTS}?search=${tag}`);
  await page.getByRole('link', { name: `${tag} post` }).click();
  await expect(page.getByLabel('Title')).toHaveValue(`${tag} post`);
  const comments = await openComments(page);
  // Unchanged: Escape closes at once.
  await comments.getByRole('button', { name: 'Create' }).click();
  await expect(openDialog(page).getByLabel('Author')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.locator('dialog[open]')).toHaveCount(0);
  await expect(comments.getByRole('button', { name: 'Create' })).toBeFocused();
  // Changed: Escape asks; Stay keeps what was typed.
  await comments.getByRole('button', { name: 'Create' }).click();
  const dialog = openDialog(page);
  await dialog.getByLabel('Author').fill(`${tag} Kept`);
  await page.keyboard.press('Escape');
  const ask = page.getByRole('dialog', { name: 'Close without saving?' });
  await expect(ask).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'relations-ask');
  await ask.getByRole('button', { name: 'Stay' }).click();
  await expect(ask).toBeHidden();
  await expect(dialog.getByLabel('Author')).toHaveValue(`${tag} Kept`);
  // Cancel asks too; Discard closes without creating anything.
  await page.getByRole('dialog', { name: 'Create a record' }).getByRole('button', { name: 'Cancel' }).click();
  await ask.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.locator('dialog[open]')).toHaveCount(0);
  expect(await related(api, `/cms/journal/posts/${id}/relations/comments`)).toEqual([]);
  // Save from the question creates it.
  await comments.getByRole('button', { name: 'Create' }).click();
  await openDialog(page).getByLabel('Author').fill(`${tag} Saved`);
  await openDialog(page).getByLabel('Comment').fill('Saved from the question.');
  await page.keyboard.press('Escape');
  await ask.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('dialog[open]')).toHaveCount(0);
  await expect(comments.getByRole('table')).toContainText('Saved from the question.');
  // Leaving the page (Back) while a dialog holds changes asks first.
  await comments.getByRole('button', { name: `Edit: ${tag} Saved` }).click();
  await openDialog(page).getByLabel('Comment').fill('Not saved yet.');
  await page.goBack();
  await expect(page.getByRole('dialog', { name: 'Leave without saving?' })).toBeVisible();
  await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(new RegExp(`/update/${id}$`));
  await expect(openDialog(page).getByLabel('Comment')).toHaveValue('Not saved yet.');
  // A reload or closing the tab gets the browser's question.
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (question) => {
      resolve(question.type());
      void question.dismiss();
    }),
  );
  await page.close({ runBeforeUnload: true });
  expect(await asked).toBe('beforeunload');
  await api.dispose();
});

test('keyboard only: link through the picker and create a child', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('rkb');
  const [host] = await createProducts(api, uniqueTag('rkh'), 1);
  await createProducts(api, tag, 2);
  await signIn(page, `${PRODUCTS}/update/${host}`);
  const link = panel(page).getByRole('button', { name: 'Link', exact: true });
  await link.focus();
  await page.keyboard.press('Enter');
  const picker = openDialog(page);
  await expect(picker.getByLabel('Search records to link…')).toBeFocused();
  await page.keyboard.type(tag);
  await expect(picker.getByRole('status')).toHaveText('2 records can be linked.');
  await page.keyboard.press('Tab');
  await expect(picker.getByRole('checkbox', { name: 'Select all rows on this page' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  await expect(picker.getByRole('checkbox', { name: `Select ${tag} 1` })).toBeChecked();
  // The arrows move between the rows' checkboxes.
  await page.keyboard.press('ArrowDown');
  await expect(picker.getByRole('checkbox', { name: `Select ${tag} 2` })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(picker.getByRole('checkbox', { name: `Select ${tag} 1` })).toBeFocused();
  const submit = picker.getByRole('button', { name: 'Link', exact: true });
  for (let i = 0; i < 6 && !(await submit.evaluate((element) => element === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(submit).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(status(page, 'Linked.')).toBeAttached();
  await expect(link).toBeFocused();
  expect((await related(api, `/acme/catalog/products/${host}/relations/accessories`)).map((row) => row.name)).toEqual([`${tag} 1`]);

  const id = await post(api, tag);
  await page.goto(`${POSTS}/update/${id}`);
  const comments = await openComments(page);
  await comments.getByRole('button', { name: 'Create' }).focus();
  await page.keyboard.press('Enter');
  await expect(openDialog(page).getByLabel('Author')).toBeFocused();
  await page.keyboard.type(`${tag} Keys`);
  await page.keyboard.press('Tab');
  await page.keyboard.type('Typed without a mouse.');
  await openDialog(page).getByLabel('Author').focus();
  await page.keyboard.press('Enter');
  await expect(status(page, 'Created.')).toBeAttached();
  await expect(comments.getByRole('button', { name: 'Create' })).toBeFocused();
  expect((await related(api, `/cms/journal/posts/${id}/relations/comments`)).map((row) => row.body)).toEqual(['Typed without a mouse.']);
  await api.dispose();
});

for (const theme of ['light', 'dark'] as const) {
  test(`axe: the panel and every dialog in the ${theme} theme`, async ({ page }) => {
    test.slow();
    await page.emulateMedia({ colorScheme: theme });
    const api = await apiAs();
    const tag = uniqueTag('rax');
    const id = await post(api, tag);
    await comment(api, id, `${tag} Ada`);
    await signIn(page, `${POSTS}/update/${id}`);
    const comments = await openComments(page);
    await expectAccessible(page);
    await screenshot(page, `relations-panel-${theme}`);
    await comments.getByRole('button', { name: 'Create' }).click();
    await expect(openDialog(page).getByLabel('Author')).toBeFocused();
    await expectAccessible(page);
    await screenshot(page, `relations-create-${theme}`);
    await page.keyboard.press('Escape');
    await comments.getByRole('button', { name: 'Link', exact: true }).click();
    await expect(openDialog(page).getByRole('heading', { name: 'Link', exact: true })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, `relations-picker-${theme}`);
    await page.keyboard.press('Escape');
    await comments.getByRole('checkbox', { name: `Select ${tag} Ada` }).check();
    await comments.getByRole('button', { name: 'Delete selected' }).click();
    await expect(openDialog(page)).toContainText('Delete the selected record?');
    await expectAccessible(page);
    await screenshot(page, `relations-confirm-${theme}`);
    await page.keyboard.press('Escape');
    // The pivot dialog of an accessory.
    const [host, accessory] = await createProducts(api, tag, 2);
    await api.post(`${API}/acme/catalog/products/${host}/relations/accessories/link`, { data: { ids: [accessory] } });
    await page.goto(`${PRODUCTS}/update/${host}`);
    await panel(page)
      .getByRole('button', { name: `Edit: ${tag} 2` })
      .click();
    await expect(openDialog(page).getByLabel('Quantity')).toHaveValue('1');
    await expectAccessible(page);
    await screenshot(page, `relations-pivot-${theme}`);
    await api.dispose();
  });
}

test('in German at 320 px: the panel and its dialog fit without horizontal scrolling', async ({ page }) => {
  const api = await apiAs();
  const account = await createAccount(api, 'rde');
  const tag = uniqueTag('rde');
  const id = await post(api, tag);
  await comment(api, id, `${tag} Ada`, 'Ein Kommentar mit etwas mehr Text, damit die Zeile umbricht.');
  await page.setViewportSize({ width: 320, height: 720 });
  await signIn(page, `${POSTS}/update/${id}`, account);
  await page.locator('details.cms-account summary').click();
  await page.getByLabel('Language').selectOption('de');
  await expect(page.getByRole('button', { name: 'Speichern', exact: true })).toBeVisible();
  await page.locator('details.cms-account summary').click();
  await page.getByRole('tab', { name: 'Kommentare' }).click();
  await expect(panel(page).getByRole('table')).toContainText(`${tag} Ada`);
  const fits = () =>
    page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      panel: document.querySelector('cms-relation-manager')!.getBoundingClientRect().right,
    }));
  // A wide table scrolls inside its own frame; nothing else reaches past the right edge.
  const wide = await page.evaluate(() =>
    Array.from(document.querySelectorAll('main *'))
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1 && !element.closest('.cms-table-wrap table'))
      .map((element) => `${element.localName}.${element.className} ${Math.round(element.getBoundingClientRect().right)}`),
  );
  expect(wide).toEqual([]);
  expect((await fits()).page).toBeLessThanOrEqual(320);
  expect((await fits()).panel).toBeLessThanOrEqual(320);
  await expectAccessible(page);
  await screenshot(page, 'relations-de-320');
  await panel(page)
    .getByRole('button', { name: `Bearbeiten: ${tag} Ada` })
    .click();
  await expect(openDialog(page).getByLabel('Kommentar')).not.toHaveValue('');
  expect((await fits()).page).toBeLessThanOrEqual(320);
  const dialogRight = await openDialog(page).evaluate((element) => element.getBoundingClientRect().right);
  expect(dialogRight).toBeLessThanOrEqual(320);
  await expectAccessible(page);
  await screenshot(page, 'relations-de-320-dialog');
  await api.dispose();
});
