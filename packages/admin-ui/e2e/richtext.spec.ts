import { expect, type Page, type Request, test } from '@playwright/test';
import { API, apiAs, expectAccessible, screenshot, signIn } from './support.ts';

/*
 * The `richeditor` and `markdown` fields (docs/field-types.md, "richeditor and markdown"): the rich
 * editor's round trip with the toolbar and with the keyboard, its chunk only on forms that need
 * it, and the Markdown preview built through the allowlist, where hostile markup stays inert.
 */

const STOREFRONT = '/backend/acme/catalog/storefront';
const STOREFRONT_API = `${API}/acme/catalog/storefront`;
const POSTS_CREATE = '/backend/cms/journal/posts/create';
const PRODUCTS_CREATE = '/backend/acme/catalog/products/create';

/** The rich editor's own chunk (Tiptap) and the field's small module that imports it. */
const RICH_EDITOR_CHUNK = /\/rich-editor-[\w-]+\.js$/;
const RICHEDITOR_MODULE = /\/richeditor-[\w-]+\.js$/;

/** Every request of the page, to look for what must (not) be asked for. */
function requests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => seen.push(request));
  return seen;
}

/** A dialog (an `alert` that ran) fails the test; leaving a form with changes is allowed. */
function noDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    if (dialog.type() === 'beforeunload') return void dialog.accept();
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return dialogs;
}

/**
 * Lets the browser deliver its `selectionchange` (a queued task, which ProseMirror reads the
 * selection from) before the next key: a person is never faster than that, a test is.
 */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
}

test.afterEach(async ({ page, context }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await context.unrouteAll({ behavior: 'ignoreErrors' });
});

test('richeditor: bold with the toolbar and with Ctrl+B, saved and read back over the API', async ({ page }) => {
  // Two editings, axe and a save: longer than one flow.
  test.setTimeout(90_000);
  const api = await apiAs();
  const record = (await (await api.get(`${STOREFRONT_API}/singleton`)).json()).data as { id: number };
  const arranged = await api.put(`${STOREFRONT_API}/${record.id}`, { data: { about: '<p>alpha beta gamma</p>' } });
  expect(arranged.status(), await arranged.text()).toBe(200);
  const seen = requests(page);

  await signIn(page, STOREFRONT);
  const editor = page.getByRole('textbox', { name: 'About the shop' });
  await expect(editor).toHaveAttribute('contenteditable', 'true');
  await expect(editor).toHaveAttribute('aria-multiline', 'true');
  await expect(editor).toHaveText('alpha beta gamma');
  expect(seen.some((request) => RICH_EDITOR_CHUNK.test(request.url()))).toBe(true);
  // Shown, not reported: nothing changed yet.
  await expect(page.getByText('Unsaved changes')).toHaveCount(0);

  // The toolbar: "alpha" chosen with the keyboard, made bold with the button.
  await editor.click();
  await page.keyboard.press('Control+Home');
  for (let n = 0; n < 'alpha'.length; n++) await page.keyboard.press('Shift+ArrowRight');
  await settle(page);
  const bold = page.getByRole('button', { name: 'Bold' });
  await expect(bold).toHaveAttribute('aria-pressed', 'false');
  await bold.click();
  await expect(editor.locator('strong')).toHaveText('alpha');
  await expect(bold).toHaveAttribute('aria-pressed', 'true');

  // Keyboard only: "gamma" chosen and made bold with Ctrl+B.
  await page.keyboard.press('End');
  for (let n = 0; n < 'gamma'.length; n++) await page.keyboard.press('Shift+ArrowLeft');
  await settle(page);
  await page.keyboard.press('Control+b');
  await expect(editor.locator('strong')).toHaveText(['alpha', 'gamma']);

  // Escape reaches the toolbar; the arrows move along it; Enter presses a button.
  await page.keyboard.press('Escape');
  await expect(bold).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('button', { name: 'Italic' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(page.getByRole('button', { name: 'Redo' })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(bold).toBeFocused();

  await screenshot(page, 'richtext-editor');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.')).toBeVisible();

  const saved = (await (await api.get(`${STOREFRONT_API}/${record.id}`)).json()).data as { about: string };
  expect(saved.about).toBe('<p><strong>alpha</strong> beta <strong>gamma</strong></p>');
  await api.dispose();
});

test('richeditor: the link box by keyboard refuses a script address and links a web address; a restored draft is shown', async ({
  page,
}) => {
  const dialogs = noDialogs(page);
  await signIn(page, STOREFRONT);
  const editor = page.getByRole('textbox', { name: 'About the shop' });
  await expect(editor).toHaveAttribute('contenteditable', 'true');
  await expect(page.getByRole('toolbar', { name: 'Formatting' })).toBeVisible();
  // Opening the form is not an edit.
  await expect(page.getByText('Unsaved changes')).toHaveCount(0);

  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('shop');
  for (let n = 0; n < 'shop'.length; n++) await page.keyboard.press('Shift+ArrowLeft');
  await settle(page);
  await page.keyboard.press('Control+k');
  const address = page.getByRole('textbox', { name: 'Link address' });
  await expect(address).toBeFocused();
  await page.keyboard.type('javascript:alert(1)');
  await page.keyboard.press('Enter');
  await expect(address).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Enter a web address')).toBeVisible();
  await address.fill('example.com/shop');
  await page.keyboard.press('Enter');
  await expect(address).toHaveCount(0);
  await expect(editor.locator('a')).toHaveAttribute('href', 'https://example.com/shop');
  await expect(editor.locator('a')).toHaveText('shop');
  await expect(page.getByRole('button', { name: 'Link' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('Unsaved changes')).toBeVisible();

  // A value from outside (the draft restored after a reload) replaces what the editor shows.
  await page.waitForTimeout(2500);
  await page.reload();
  await expect(editor).toHaveAttribute('contenteditable', 'true');
  await expect(editor.locator('a')).toHaveCount(0);
  await page.getByRole('button', { name: 'Restore' }).click();
  await expect(editor.locator('a')).toHaveAttribute('href', 'https://example.com/shop');
  expect(dialogs).toEqual([]);
});

test('richeditor: its chunk is not loaded by a form without a rich-text field', async ({ page }) => {
  const seen = requests(page);
  await signIn(page, PRODUCTS_CREATE);
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const urls = seen.map((request) => request.url());
  expect(urls.filter((url) => RICH_EDITOR_CHUNK.test(url) || RICHEDITOR_MODULE.test(url))).toEqual([]);
});

test('markdown: Write and Preview tabs, a bold preview, hostile markup stays inert', async ({ page }) => {
  // Two axe runs and a preview: longer than one flow.
  test.setTimeout(90_000);
  const dialogs = noDialogs(page);
  const seen = requests(page);
  await signIn(page, POSTS_CREATE);
  const contentTab = page.getByRole('tab', { name: 'Content', exact: true });
  if (await contentTab.count()) await contentTab.click();

  const source = page.getByRole('textbox', { name: 'Content', exact: true });
  await source.fill('**bold** and [x](javascript:alert(1))\n\n<img src=x onerror=alert(1)>\n\n<a href="javascript:alert(2)">y</a>');
  const write = page.getByRole('tab', { name: 'Write' });
  const preview = page.getByRole('tab', { name: 'Preview' });
  await expect(write).toHaveAttribute('aria-selected', 'true');

  // APG tabs: the arrow selects the other tab and moves the focus with it.
  const previewAnswer = page.waitForResponse((response) => response.url().endsWith('/markdown/preview'));
  await write.focus();
  await page.keyboard.press('ArrowRight');
  await expect(preview).toBeFocused();
  await expect(preview).toHaveAttribute('aria-selected', 'true');
  // The body is exactly `{"markdown": …}` (anything else would be a 422).
  expect((await previewAnswer).status()).toBe(200);

  const panel = page.getByRole('tabpanel', { name: 'Preview' });
  await expect(panel.locator('strong')).toHaveText('bold');
  await expect(panel).toContainText('[x](javascript:alert(1))');
  await expect(panel.locator('img')).toHaveCount(0);
  await expect(panel.locator('[onerror], [onclick], script')).toHaveCount(0);
  await expect(panel.locator('a[href^="javascript" i]')).toHaveCount(0);
  await expect(source).toBeHidden();
  await screenshot(page, 'richtext-markdown-preview');
  await expectAccessible(page);

  // Back to Write with the keyboard (Home), the source as it was.
  await page.keyboard.press('Home');
  await expect(write).toBeFocused();
  await expect(source).toHaveValue(/^\*\*bold\*\*/);
  await expectAccessible(page);

  // The toolbar applies to the source, and its buttons are named.
  await source.fill('word');
  await source.selectText();
  await page.getByRole('button', { name: 'Italic' }).click();
  await expect(source).toHaveValue('_word_');

  await page.waitForTimeout(300);
  expect(dialogs).toEqual([]);
  expect(seen.filter((request) => new URL(request.url()).pathname.endsWith('/x')).map((request) => request.url())).toEqual([]);
});
