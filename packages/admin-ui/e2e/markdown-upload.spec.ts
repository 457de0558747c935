import { deflateSync } from 'node:zlib';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { ADMIN, API, apiAs, expectAccessible, screenshot, signIn, uniqueTag } from './support.ts';

/*
 * Images from the Markdown editor of a post (docs/field-types.md, "richeditor and markdown";
 * docs/journal.md, "Media upload"): the toolbar's "Insert image", a pasted and a dropped image
 * upload through the field's `uploadRoute` on the admin's cookie session, `![name](url)` goes in
 * at the caret, the preview shows the image (a root-relative address of this host: docs/admin-ui.md,
 * "Field types"), the save keeps it; a refused file says why under the editor.
 */

const POSTS = '/backend/cms/journal/posts';
const POSTS_API = `${API}/cms/journal/posts`;
const UPLOAD = '/_journal/api/v1/media/upload';

/** CRC-32 of PNG chunks. */
function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** A real PNG of `width`×`height` pixels in one colour (the upload decodes it). */
function png(width = 24, height = 16, rgb: [number, number, number] = [30, 120, 200]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A post of this test, answered with its id. */
async function createPost(api: APIRequestContext, tag: string, content = ''): Promise<number> {
  const answer = await api.post(POSTS_API, { data: { title: `${tag} post`, slug: tag.toLowerCase(), content } });
  expect(answer.status(), await answer.text()).toBe(201);
  return (await answer.json()).data.id as number;
}

/** The post's form on its Content tab, answered with the Markdown source. */
async function openContent(page: Page, id: number) {
  await signIn(page, `${POSTS}/update/${id}`);
  await page.getByRole('tab', { name: 'Content', exact: true }).click();
  const source = page.getByRole('textbox', { name: 'Content', exact: true });
  await expect(source).toBeVisible();
  return source;
}

/** Whether the image has loaded and has pixels. */
const loaded = (page: Page, selector: string) =>
  page.locator(selector).evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0);

/** A `paste` or `drop` of `files` on the source, as the browser sends them. */
async function deliver(page: Page, type: 'paste' | 'drop', files: Array<{ name: string; mime: string; bytes: number[] }>) {
  await page.locator('.cms-markdown__source').evaluate(
    (area, { type, files }) => {
      const transfer = new DataTransfer();
      for (const file of files) transfer.items.add(new File([new Uint8Array(file.bytes)], file.name, { type: file.mime }));
      const event =
        type === 'paste'
          ? new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true })
          : new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true });
      area.dispatchEvent(event);
    },
    { type, files },
  );
}

test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('keyboard: Insert image opens the chooser, the image goes in at the caret, shows in the preview and is saved', async ({ page }) => {
  // An upload, a preview, a save, a reload and two axe runs: longer than one flow.
  test.setTimeout(90_000);
  const api = await apiAs();
  const tag = uniqueTag('mdu');
  const id = await createPost(api, tag, 'Intro line');
  const source = await openContent(page, id);

  // The caret after "Intro ", then the toolbar by keyboard: End reaches "Insert image", Enter opens the chooser.
  await source.focus();
  await source.evaluate((area: HTMLTextAreaElement) => area.setSelectionRange(6, 6));
  const bold = page.getByRole('button', { name: 'Bold' });
  await bold.focus();
  await page.keyboard.press('End');
  const insert = page.getByRole('button', { name: 'Insert image' });
  await expect(insert).toBeFocused();
  const chooser = page.waitForEvent('filechooser');
  const uploaded = page.waitForResponse((response) => new URL(response.url()).pathname === UPLOAD);
  await page.keyboard.press('Enter');
  const files = await chooser;
  expect(files.isMultiple()).toBe(true);
  await files.setFiles({ name: `${tag}.png`, mimeType: 'image/png', buffer: png() });
  const answer = await uploaded;
  expect(answer.status()).toBe(201);
  // The browser's own request: the cookie session and the header of every call of the application.
  expect(answer.request().headers()['x-requested-with']).toBe('XMLHttpRequest');
  const url = (await answer.json()).data.url as string;
  expect(url).toMatch(new RegExp(`^/backend/assets/_files/journal/${tag}(-\\d+)?\\.png$`));

  await expect(source).toHaveValue(`Intro ![${tag}](${url})line`);
  await expect(page.getByRole('status').filter({ hasText: `Image ${tag}.png inserted.` })).toBeAttached();
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await expect(insert).toBeFocused();
  await expectAccessible(page);

  // The preview loads the image from its root-relative address.
  await page.getByRole('tab', { name: 'Preview' }).click();
  const image = page.getByRole('tabpanel', { name: 'Preview' }).locator('img');
  await expect(image).toHaveAttribute('src', url);
  await expect(image).toHaveAttribute('alt', tag);
  await expect.poll(() => loaded(page, '.cms-markdown__preview img')).toBe(true);
  await screenshot(page, 'markdown-upload-preview');
  await expectAccessible(page);

  // Saved, and there after a reload.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeAttached();
  const stored = (await (await api.get(`${POSTS_API}/${id}`)).json()).data.content as string;
  expect(stored).toBe(`Intro ![${tag}](${url})line`);
  await page.reload();
  await page.getByRole('tab', { name: 'Content', exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Content', exact: true })).toHaveValue(stored);
  await api.dispose();
});

test('a pasted image and a dropped image file are uploaded and inserted in turn', async ({ page }) => {
  test.setTimeout(60_000);
  const api = await apiAs();
  const tag = uniqueTag('mdp');
  const id = await createPost(api, tag);
  const source = await openContent(page, id);
  await source.focus();

  // A slow upload shows what is on its way, with its progress, until its answer comes.
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`**${UPLOAD}`, async (route) => {
    await held;
    await route.continue();
  });
  await deliver(page, 'paste', [{ name: `${tag}-pasted.png`, mime: 'image/png', bytes: [...png(10, 10, [200, 40, 40])] }]);
  const uploading = page.locator('.cms-markdown__uploading');
  await expect(uploading).toContainText(`Uploading ${tag}-pasted.png…`);
  await expect(uploading.getByRole('progressbar', { name: `Uploading ${tag}-pasted.png…` })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: `Uploading ${tag}-pasted.png…` })).toBeAttached();
  await screenshot(page, 'markdown-upload-busy');
  release();
  await expect(uploading).toHaveCount(0);
  await expect(source).toHaveValue(new RegExp(`^!\\[${tag}-pasted\\]\\(/backend/assets/_files/journal/${tag}-pasted(-\\d+)?\\.png\\)$`));
  await source.press('End');
  await source.press('Enter');
  await deliver(page, 'drop', [{ name: `${tag}-dropped.png`, mime: 'image/png', bytes: [...png(12, 8, [40, 160, 60])] }]);
  await expect(source).toHaveValue(
    new RegExp(
      `^!\\[${tag}-pasted\\]\\([^)]+\\)\\n!\\[${tag}-dropped\\]\\(/backend/assets/_files/journal/${tag}-dropped(-\\d+)?\\.png\\)$`,
    ),
  );
  // Still on the form: the dropped file was not opened by the browser.
  expect(new URL(page.url()).pathname).toBe(`${POSTS}/update/${id}`);
  await page.getByRole('tab', { name: 'Preview' }).click();
  await expect(page.locator('.cms-markdown__preview img')).toHaveCount(2);
  await api.dispose();
});

test('a session that ended: the sign-in dialog opens, and the image goes in after it', async ({ page, context }) => {
  test.setTimeout(60_000);
  const api = await apiAs();
  const tag = uniqueTag('mds');
  const id = await createPost(api, tag);
  const source = await openContent(page, id);
  await context.clearCookies();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Insert image' }).click();
  await (await chooser).setFiles({ name: `${tag}.png`, mimeType: 'image/png', buffer: png() });
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Your session has ended' })).toBeVisible();
  await dialog.getByLabel('Login or email').fill(ADMIN.login);
  await dialog.getByLabel('Password').fill(ADMIN.password);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await expect(source).toHaveValue(new RegExp(`^!\\[${tag}\\]\\(/backend/assets/_files/journal/${tag}(-\\d+)?\\.png\\)$`));
  await api.dispose();
});

for (const theme of ['light', 'dark'] as const) {
  test(`a refused file says why under the editor, and is announced (${theme} theme)`, async ({ page }) => {
    test.setTimeout(60_000);
    await page.emulateMedia({ colorScheme: theme });
    const api = await apiAs();
    const tag = uniqueTag('mdr');
    const id = await createPost(api, tag, 'kept');
    const source = await openContent(page, id);
    const insert = page.getByRole('button', { name: 'Insert image' });

    // Named like an image, but not one: the server refuses it (422 on `file`).
    let chooser = page.waitForEvent('filechooser');
    const refused = page.waitForResponse((response) => new URL(response.url()).pathname === UPLOAD);
    await insert.click();
    await (await chooser).setFiles({ name: `${tag}.png`, mimeType: 'image/png', buffer: Buffer.from('not an image at all') });
    expect((await refused).status()).toBe(422);
    const errors = page.locator('.cms-markdown__upload-errors');
    await expect(errors).toContainText(`${tag}.png could not be uploaded:`);
    await expect(page.getByRole('status').filter({ hasText: `${tag}.png could not be uploaded:` })).toBeAttached();
    // The message describes the source, and nothing was inserted or changed.
    await expect(source).toHaveAttribute('aria-describedby', /-upload-errors/);
    await expect(source).toHaveValue('kept');
    await expect(page.getByText('Unsaved changes')).toHaveCount(0);
    await screenshot(page, `markdown-upload-refused-${theme}`);
    await expectAccessible(page);

    // Not an image type at all: refused here, without a request.
    let requests = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === UPLOAD) requests++;
    });
    chooser = page.waitForEvent('filechooser');
    await insert.click();
    await (await chooser).setFiles({ name: `${tag}.txt`, mimeType: 'text/plain', buffer: Buffer.from('plain text') });
    await expect(errors).toHaveText(`${tag}.txt: only images (JPEG, PNG, GIF, WebP) can be inserted.`);
    expect(requests).toBe(0);
    await expect(source).toHaveValue('kept');

    // 320 px wide: the toolbar wraps and the messages break, nothing of the editor reaches past the edge.
    await page.setViewportSize({ width: 320, height: 720 });
    await expect(page.getByRole('button', { name: 'Insert image' })).toBeVisible();
    const wide = await page.evaluate(() =>
      Array.from(document.querySelectorAll('cms-markdown *'))
        .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
        .map((element) => element.className || element.tagName),
    );
    expect(wide).toEqual([]);
    await screenshot(page, `markdown-upload-320-${theme}`);
    await api.dispose();
  });
}
