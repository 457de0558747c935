import { deflateSync } from 'node:zlib';
import { type APIRequestContext, expect, type Locator, type Page, type Request, test } from '@playwright/test';
import { ADMIN, API, apiAs, createProducts, expectAccessible, screenshot, signIn, uniqueTag } from './support.ts';

/*
 * The file upload control (docs/admin-ui.md, "File uploads"; docs/files.md): uploads with their
 * progress, several files, the checks made before sending, captions, the order, removal, pending
 * uploads of a new record, a retry after a lost answer that stores one file, attachOne replacing,
 * a protected file's download, image previews, and axe on the control and its dialog.
 */

const POSTS = '/backend/cms/journal/posts';
const POSTS_API = `${API}/cms/journal/posts`;
const PRODUCTS = '/backend/acme/catalog/products';
const PRODUCTS_API = `${API}/acme/catalog/products`;

test.afterEach(async ({ page, context }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await context.unrouteAll({ behavior: 'ignoreErrors' });
});

// ---- files to upload ----

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG of one colour (the server decodes every pixel of an image upload). */
function png(width: number, height: number, rgb: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const image = (name: string, rgb: [number, number, number] = [200, 60, 60]) => ({ name, mimeType: 'image/png', buffer: png(64, 48, rgb) });

// ---- arranging and reading over the API ----

async function createPost(api: APIRequestContext, tag: string): Promise<number> {
  const answer = await api.post(POSTS_API, { data: { title: `${tag} post`, slug: tag } });
  expect(answer.status(), await answer.text()).toBe(201);
  return (await answer.json()).data.id as number;
}

/** Attaches a file at once (no session key), as code or another admin would. */
async function attach(api: APIRequestContext, path: string, file: { name: string; mimeType: string; buffer: Buffer }): Promise<number> {
  const answer = await api.post(path, { multipart: { file_data: file } });
  expect(answer.status(), await answer.text()).toBe(201);
  return (await answer.json()).data.id as number;
}

type Item = { id: number; file_name: string; pending: boolean; title: string; description: string };

async function filesOf(api: APIRequestContext, path: string): Promise<Item[]> {
  const answer = await api.get(path);
  expect(answer.status()).toBe(200);
  return (await answer.json()).data as Item[];
}

/** The uploads the page sent to a file base. */
function uploadsTo(page: Page, field: string): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith(`/files/${field}`)) seen.push(request);
  });
  return seen;
}

const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true });
const saved = (page: Page) => expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeAttached();
const said = (page: Page, text: string | RegExp) => expect(page.getByRole('status').filter({ hasText: text })).toBeAttached();

async function openManage(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Manage' }).click();
}

const gallery = (page: Page): Locator => page.getByRole('group', { name: 'Gallery' });
const cover = (page: Page): Locator => page.getByRole('group', { name: 'Cover image' });
const itemsOf = (group: Locator): Locator => group.locator('.cms-files-list > li:not(.cms-files-upload)');

// ---- the flows ----

test('keyboard only: a protected datasheet uploaded with visible progress, saved, downloaded through its route', async ({ page }) => {
  test.slow();
  const api = await apiAs();
  const tag = uniqueTag('fds');
  const [id] = await createProducts(api, tag, 1);
  await signIn(page, `${PRODUCTS}/update/${id}`);
  const field = page.getByRole('group', { name: 'Datasheet' });
  const choose = field.getByRole('button', { name: 'Choose a file' });
  await expect(choose).toBeVisible();
  await expect(field.locator('input[type=file]')).toHaveAttribute('accept', '.pdf,.txt');

  // A slow connection: the progress shows while the file goes up.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 50, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
  const text = `${tag} datasheet\n`.repeat(40_000);
  await choose.focus();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
  await chooser.setFiles({ name: `${tag}.txt`, mimeType: 'text/plain', buffer: Buffer.from(text) });
  const progress = field.getByRole('progressbar', { name: `Upload of ${tag}.txt` });
  await expect(progress).toBeVisible();
  // The bar moves while the bytes go (upload events), before the answer.
  await expect.poll(() => progress.evaluate((bar: HTMLProgressElement) => bar.value), { timeout: 15_000 }).toBeGreaterThan(0);
  await screenshot(page, 'files-progress');
  await expect(field.getByText(`${tag}.txt`, { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(progress).toHaveCount(0);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await said(page, `${tag}.txt uploaded.`);
  await expect(field.getByText('Not saved yet')).toBeVisible();

  // Ctrl+S saves; the file is attached, no longer pending.
  await page.keyboard.press('Control+s');
  await saved(page);
  await expect(field.getByText('Not saved yet')).toHaveCount(0);
  const stored = await filesOf(api, `${PRODUCTS_API}/${id}/files/datasheet`);
  expect(stored.map((item) => [item.file_name, item.pending])).toEqual([[`${tag}.txt`, false]]);

  // The download link goes through the protected route, with the page's session.
  const link = field.getByRole('link', { name: `Download ${tag}.txt` });
  const href = (await link.getAttribute('href')) ?? '';
  expect(href).toBe(`${PRODUCTS_API}/${id}/files/datasheet/${stored[0]!.id}/download`);
  const download = await page.request.get(href);
  expect(download.status()).toBe(200);
  expect(download.headers()['content-disposition']).toMatch(/^attachment/);
  expect((await download.body()).toString()).toBe(text);
  const [event] = await Promise.all([page.waitForEvent('download'), link.focus().then(() => page.keyboard.press('Enter'))]);
  expect(event.suggestedFilename()).toBe(`${tag}.txt`);
  await api.dispose();
});

test('several images into the gallery: pending, saved in order, moved with the keyboard, removed', async ({ page }) => {
  test.slow();
  const api = await apiAs();
  const tag = uniqueTag('fgl');
  const id = await createPost(api, tag);
  await signIn(page, `${POSTS}/update/${id}`);
  await openManage(page);
  const field = gallery(page);
  await field
    .locator('input[type=file]')
    .setInputFiles([image('one.png', [220, 40, 40]), image('two.png', [40, 160, 40]), image('three.png', [40, 40, 220])]);
  await expect(itemsOf(field)).toHaveCount(3);
  await expect(field.getByText('Not saved yet')).toHaveCount(3);
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await save(page).click();
  await saved(page);
  await expect(field.getByText('Not saved yet')).toHaveCount(0);
  const base = `${POSTS_API}/${id}/files/gallery`;
  const first = await filesOf(api, base);
  expect(first.map((item) => item.file_name)).toEqual(['one.png', 'two.png', 'three.png']);

  // Keyboard: the handle of "three" moves up twice; each move saves every id in the new order.
  let reorders = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/files/gallery/reorder')) reorders++;
  });
  const handle = field.getByRole('button', { name: 'Move three.png', exact: true });
  await handle.focus();
  await page.keyboard.press('ArrowUp');
  await said(page, 'three.png moved to position 2 of 3.');
  await expect(field.getByRole('button', { name: 'Move three.png', exact: true })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await said(page, 'three.png moved to position 1 of 3.');
  // The route takes only every id of the field, each once: the stored order is the proof of the body.
  await expect.poll(() => reorders).toBe(2);
  await expect.poll(async () => (await filesOf(api, base)).map((item) => item.file_name)).toEqual(['three.png', 'one.png', 'two.png']);
  await expect(itemsOf(field).locator('.cms-files-name')).toHaveText(['three.png', 'one.png', 'two.png']);

  // Remove: the removal waits for the save under the form's key.
  await field.getByRole('button', { name: 'Remove one.png' }).click();
  await said(page, 'one.png removed.');
  await expect(itemsOf(field)).toHaveCount(2);
  await save(page).click();
  await expect.poll(async () => (await filesOf(api, base)).map((item) => item.file_name)).toEqual(['three.png', 'two.png']);
  await api.dispose();
});

test('maxFiles and a wrong type are refused before anything is sent', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('fmx');
  const id = await createPost(api, tag);
  const base = `${POSTS_API}/${id}/files/gallery`;
  for (let n = 1; n <= 5; n++) await attach(api, base, image(`held-${n}.png`));
  const sent = uploadsTo(page, 'gallery');
  await signIn(page, `${POSTS}/update/${id}`);
  await openManage(page);
  const field = gallery(page);
  await expect(itemsOf(field)).toHaveCount(5);
  await expect(field.getByText(/At most 6 files\./)).toBeVisible();

  // A PDF in an image field: refused here, shown and announced.
  await field
    .locator('input[type=file]')
    .setInputFiles([{ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n') }]);
  await expect(field.getByText('notes.pdf: only these types are allowed: jpg, jpeg, png, gif, webp.')).toBeVisible();
  await said(page, 'notes.pdf: only these types are allowed: jpg, jpeg, png, gif, webp.');
  expect(sent).toHaveLength(0);
  // Two images where one fits: the second is refused here.
  await field.locator('input[type=file]').setInputFiles([image('fits.png'), image('extra.png')]);
  await expect(field.getByText('extra.png was not added: the field holds at most 6 files.')).toBeVisible();
  await expect(itemsOf(field)).toHaveCount(6);
  await expect(field.getByText('fits.png', { exact: true })).toBeVisible();
  expect(sent).toHaveLength(1);

  // Full now: one more is refused without a request.
  await field.locator('input[type=file]').setInputFiles([image('seventh.png')]);
  await expect(field.getByText('seventh.png was not added: the field holds at most 6 files.')).toBeVisible();
  expect(sent).toHaveLength(1);
  await screenshot(page, 'files-refused');
  await api.dispose();
});

test('a caption edited in its dialog (PUT with title and description), Esc returns the focus', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('fcp');
  const id = await createPost(api, tag);
  const base = `${POSTS_API}/${id}/files/gallery`;
  const fileId = await attach(api, base, image('harbour.png'));
  await signIn(page, `${POSTS}/update/${id}`);
  await openManage(page);
  const field = gallery(page);
  const edit = field.getByRole('button', { name: 'Edit caption of harbour.png' });
  await edit.click();
  const dialog = page.getByRole('dialog', { name: 'Caption of harbour.png' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Title')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(edit).toBeFocused();

  await page.keyboard.press('Enter');
  await dialog.getByLabel('Title').fill(`${tag} harbour`);
  // Typed text is guarded: Esc asks first; Stay keeps it, Discard closes without a request.
  await page.keyboard.press('Escape');
  await expect(dialog.getByText('Close without saving?')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Stay' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog.getByLabel('Title')).toBeFocused();
  await expect(dialog.getByLabel('Title')).toHaveValue(`${tag} harbour`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  let put = false;
  page.on('request', (request) => {
    if (request.method() === 'PUT') put = true;
  });
  await dialog.getByRole('button', { name: 'Discard changes' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(edit).toBeFocused();
  expect(put).toBe(false);

  await page.keyboard.press('Enter');
  await expect(dialog.getByLabel('Title')).toHaveValue('');
  await dialog.getByLabel('Title').fill(`${tag} harbour`);
  await dialog.getByLabel('Description').fill('Boats at dawn');
  await Promise.all([
    page.waitForRequest((request) => request.method() === 'PUT' && request.url().endsWith(`/files/gallery/${fileId}`)),
    dialog.getByRole('button', { name: 'Save caption' }).click(),
  ]);
  await expect(dialog).toHaveCount(0);
  await expect(edit).toBeFocused();
  await said(page, 'Caption of harbour.png saved.');
  await expect(field.getByText(`${tag} harbour — Boats at dawn`)).toBeVisible();
  const [stored] = await filesOf(api, base);
  expect(stored).toMatchObject({ title: `${tag} harbour`, description: 'Boats at dawn' });
  await api.dispose();
});

test('a new post: a cover uploaded before the first save is pending, then attached by the save', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('fnw');
  await signIn(page, `${POSTS}/create`);
  await page.getByLabel('Title').fill(`${tag} post`);
  await openManage(page);
  const field = cover(page);
  await field.locator('input[type=file]').setInputFiles([image(`${tag}.png`)]);
  await expect(field.getByText(`${tag}.png`, { exact: true })).toBeVisible();
  await expect(field.getByText('Not saved yet')).toBeVisible();
  await save(page).click();
  await expect(page).toHaveURL(/\/update\/\d+$/);
  const id = Number(page.url().split('/').pop());
  await openManage(page);
  await expect(cover(page).getByText(`${tag}.png`, { exact: true })).toBeVisible();
  await expect(cover(page).getByText('Not saved yet')).toHaveCount(0);
  const stored = await filesOf(api, `${POSTS_API}/${id}/files/cover_image`);
  expect(stored.map((item) => [item.file_name, item.pending])).toEqual([[`${tag}.png`, false]]);
  await api.dispose();
});

test('pending uploads come back after a reload through the restored draft, and the save attaches them', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('fdr');
  const id = await createPost(api, tag);
  page.on('dialog', (dialog) => void dialog.accept());
  await signIn(page, `${POSTS}/update/${id}`);
  await openManage(page);
  await gallery(page)
    .locator('input[type=file]')
    .setInputFiles([image(`${tag}.png`)]);
  await expect(gallery(page).getByText('Not saved yet')).toBeVisible();
  // The draft is written within two seconds of a change.
  await expect
    .poll(() => page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('cms-admin:draft:')).length), {
      timeout: 10_000,
    })
    .toBeGreaterThan(0);
  await page.reload();
  await page.getByRole('button', { name: 'Restore' }).click();
  await openManage(page);
  await expect(gallery(page).getByText(`${tag}.png`, { exact: true })).toBeVisible();
  await expect(gallery(page).getByText('Not saved yet')).toBeVisible();
  await save(page).click();
  await saved(page);
  const stored = await filesOf(api, `${POSTS_API}/${id}/files/gallery`);
  expect(stored.map((item) => [item.file_name, item.pending])).toEqual([[`${tag}.png`, false]]);
  await api.dispose();
});

test('a network failure after the server stored the file: Retry sends the same X-Upload-Id, one file results', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('frt');
  const id = await createPost(api, tag);
  const uploadIds: string[] = [];
  await page.route(`**${POSTS_API}/${id}/files/gallery`, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    uploadIds.push(route.request().headers()['x-upload-id'] ?? '');
    if (uploadIds.length === 1) {
      // The server stores it; the browser never hears back.
      const answer = await route.fetch();
      expect(answer.status()).toBe(201);
      await route.abort('failed');
    } else await route.continue();
  });
  await signIn(page, `${POSTS}/update/${id}`);
  await openManage(page);
  const field = gallery(page);
  await field.locator('input[type=file]').setInputFiles([image(`${tag}.png`)]);
  const retry = field.getByRole('button', { name: `Retry upload of ${tag}.png` });
  await expect(retry).toBeVisible();
  await expect(field.getByText('The connection failed.')).toBeVisible();
  await said(page, `${tag}.png could not be uploaded.`);
  await screenshot(page, 'files-failed');
  await retry.click();
  await said(page, `${tag}.png uploaded.`);
  await expect(itemsOf(field)).toHaveCount(1);
  expect(uploadIds).toHaveLength(2);
  expect(uploadIds[0]).toMatch(/^[A-Za-z0-9._-]+$/);
  expect(uploadIds[1]).toBe(uploadIds[0]);
  await save(page).click();
  await saved(page);
  const stored = await filesOf(api, `${POSTS_API}/${id}/files/gallery`);
  expect(stored.map((item) => item.file_name)).toEqual([`${tag}.png`]);
  await api.dispose();
});

test('attachOne: a new cover replaces the old one when saved; the preview shows at the field’s size', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('fone');
  const id = await createPost(api, tag);
  const base = `${POSTS_API}/${id}/files/cover_image`;
  await attach(api, base, image('old.png', [20, 20, 20]));
  await signIn(page, `${POSTS}/update/${id}`);
  await openManage(page);
  const field = cover(page);
  const preview = field.locator('img.cms-files-thumb');
  await expect(preview).toHaveCount(1);
  await expect(preview).toHaveAttribute('width', '200');
  await expect(preview).toHaveAttribute('height', '200');
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(200);
  expect(await preview.evaluate((img: HTMLImageElement) => img.naturalHeight)).toBe(200);

  await field.locator('input[type=file]').setInputFiles([image('new.png', [250, 200, 0])]);
  await expect(field.getByText('new.png', { exact: true })).toBeVisible();
  await expect(field.getByText('Replaces old.png when the record is saved.')).toBeVisible();
  await expect(itemsOf(field)).toHaveCount(1);
  await save(page).click();
  await saved(page);
  const stored = await filesOf(api, base);
  expect(stored.map((item) => [item.file_name, item.pending])).toEqual([['new.png', false]]);
  await expect(field.getByText('old.png')).toHaveCount(0);
  await api.dispose();
});

test('an upload cancelled on its way, then sent again with Retry; files are ordered by dragging', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('fcn');
  const id = await createPost(api, tag);
  const base = `${POSTS_API}/${id}/files/gallery`;
  for (const name of ['a.png', 'b.png']) await attach(api, base, image(name));
  // Tall enough that a drag from the last file to the first needs no scrolling on the way.
  await page.setViewportSize({ width: 1280, height: 1800 });
  let held = true;
  await page.route(`**${base}`, async (route) => {
    if (route.request().method() !== 'POST' || !held) return route.continue();
    // Held until the test lets it go: the upload is on its way meanwhile.
    while (held) await new Promise((resolve) => setTimeout(resolve, 100));
    await route.abort('aborted').catch(() => undefined);
  });
  await signIn(page, `${POSTS}/update/${id}`);
  await openManage(page);
  const field = gallery(page);
  await field.locator('input[type=file]').setInputFiles([image('c.png')]);
  const cancel = field.getByRole('button', { name: 'Cancel upload of c.png' });
  await expect(cancel).toBeVisible();
  await cancel.click();
  await said(page, 'Upload of c.png cancelled.');
  await expect(field.getByText('Cancelled', { exact: true })).toBeVisible();
  held = false;
  const retry = field.getByRole('button', { name: 'Retry upload of c.png' });
  await expect(retry).toBeFocused();
  await retry.click();
  await said(page, 'c.png uploaded.');
  await expect(itemsOf(field).locator('.cms-files-name')).toHaveText(['a.png', 'b.png', 'c.png']);

  // Drag c onto a: c goes first, and the order is saved.
  await itemsOf(field).nth(2).locator('.cms-files-name').dragTo(itemsOf(field).first().locator('.cms-files-name'));
  await said(page, 'c.png moved to position 1 of 3.');
  await expect(itemsOf(field).locator('.cms-files-name')).toHaveText(['c.png', 'a.png', 'b.png']);
  // c is pending until the save, which keeps the order the form showed.
  await save(page).click();
  await saved(page);
  await expect.poll(async () => (await filesOf(api, base)).map((item) => item.file_name)).toEqual(['c.png', 'a.png', 'b.png']);
  await api.dispose();
});

test('a 401 on an upload: one refresh of the session, one replay with the same X-Upload-Id', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('f401');
  const id = await createPost(api, tag);
  const base = `${POSTS_API}/${id}/files/gallery`;
  const uploads: { uploadId: string; requestedWith: string }[] = [];
  const events: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/auth/refresh')) events.push('refresh');
  });
  await page.route(`**${base}`, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    const headers = route.request().headers();
    uploads.push({ uploadId: headers['x-upload-id'] ?? '', requestedWith: headers['x-requested-with'] ?? '' });
    events.push('upload');
    if (uploads.length === 1)
      return route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'unauthenticated', message: 'Sign in.' } }),
      });
    return route.continue();
  });
  await signIn(page, `${POSTS}/update/${id}`);
  await openManage(page);
  await gallery(page)
    .locator('input[type=file]')
    .setInputFiles([image(`${tag}.png`)]);
  await said(page, `${tag}.png uploaded.`);
  await expect(itemsOf(gallery(page))).toHaveCount(1);
  // Between the refused upload and its replay: exactly one refresh.
  const first = events.indexOf('upload');
  expect(events.slice(first, events.indexOf('upload', first + 1) + 1)).toEqual(['upload', 'refresh', 'upload']);
  expect(uploads).toHaveLength(2);
  expect(uploads[1]).toEqual(uploads[0]);
  expect(uploads[0]!.requestedWith).toBe('XMLHttpRequest');
  await api.dispose();
});

test('a session that ended while uploading: the sign-in dialog, then the upload goes on', async ({ page, context }) => {
  const api = await apiAs();
  const tag = uniqueTag('fse');
  const id = await createPost(api, tag);
  await signIn(page, `${POSTS}/update/${id}`);
  await openManage(page);
  // The session ends behind the page's back.
  await context.clearCookies();
  await gallery(page)
    .locator('input[type=file]')
    .setInputFiles([image(`${tag}.png`)]);
  const dialog = page.getByRole('dialog', { name: 'Your session has ended' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Login or email').fill(ADMIN.login);
  await dialog.getByLabel('Password').fill(ADMIN.password);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await expect(dialog).toBeHidden();
  await said(page, `${tag}.png uploaded.`);
  await expect(itemsOf(gallery(page))).toHaveCount(1);
  await save(page).click();
  await saved(page);
  expect((await filesOf(api, `${POSTS_API}/${id}/files/gallery`)).map((item) => item.file_name)).toEqual([`${tag}.png`]);
  await api.dispose();
});

test('a server refusal (422) is shown under its file and announced', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('f422');
  const id = await createPost(api, tag);
  await signIn(page, `${POSTS}/update/${id}`);
  await openManage(page);
  const field = gallery(page);
  // The name says PNG, the bytes are not an image: only the server can tell.
  await field
    .locator('input[type=file]')
    .setInputFiles([{ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') }]);
  const row = field.locator('.cms-files-failed');
  await expect(row).toContainText('fake.png');
  await expect(field.getByRole('button', { name: 'Retry upload of fake.png' })).toBeVisible();
  await said(page, /fake\.png could not be uploaded\./);
  await field.getByRole('button', { name: 'Dismiss fake.png' }).click();
  await expect(row).toHaveCount(0);
  expect(await filesOf(api, `${POSTS_API}/${id}/files/gallery`)).toEqual([]);
  await api.dispose();
});

for (const theme of ['light', 'dark'] as const) {
  test(`axe: the file controls and the caption dialog in the ${theme} theme`, async ({ page }) => {
    test.slow();
    await page.emulateMedia({ colorScheme: theme });
    const api = await apiAs();
    const tag = uniqueTag('fax');
    const id = await createPost(api, tag);
    await attach(api, `${POSTS_API}/${id}/files/cover_image`, image('cover.png'));
    const base = `${POSTS_API}/${id}/files/gallery`;
    await attach(api, base, image('a.png', [10, 120, 200]));
    await attach(api, base, image('b.png', [200, 120, 10]));
    await signIn(page, `${POSTS}/update/${id}`);
    await openManage(page);
    await gallery(page)
      .locator('input[type=file]')
      .setInputFiles([{ name: 'wrong.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n') }]);
    await expect(gallery(page).getByText(/wrong\.pdf: only these types/)).toBeVisible();
    await expect(itemsOf(gallery(page))).toHaveCount(2);
    await expectAccessible(page);
    await screenshot(page, `files-posts-${theme}`);
    await gallery(page).getByRole('button', { name: 'Edit caption of a.png' }).click();
    await expect(page.getByRole('dialog', { name: 'Caption of a.png' })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, `files-caption-${theme}`);
    await page.keyboard.press('Escape');
    const [product] = await createProducts(api, tag, 1);
    await attach(api, `${PRODUCTS_API}/${product}/files/datasheet`, {
      name: 'sheet.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('spec'),
    });
    await page.goto(`${PRODUCTS}/update/${product}`);
    await expect(page.getByRole('link', { name: 'Download sheet.txt' })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, `files-products-${theme}`);
    await api.dispose();
  });
}

test('at 320 px the control fits without horizontal scrolling', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('f320');
  const id = await createPost(api, tag);
  await attach(api, `${POSTS_API}/${id}/files/gallery`, image('a-rather-long-file-name-for-a-small-screen.png'));
  await page.setViewportSize({ width: 320, height: 720 });
  await signIn(page, `${POSTS}/update/${id}`);
  await openManage(page);
  await expect(itemsOf(gallery(page))).toHaveCount(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await screenshot(page, 'files-320');
  await api.dispose();
});
