import { expect, test } from '@playwright/test';
import { API, apiAs, screenshot, signIn, uniqueTag } from './support.ts';

/*
 * Content shown by a partial (docs/admin-ui.md, "Security"): a post's content in the posts'
 * preview partial cannot wear the application's classes, and its images follow the Markdown
 * preview's rule — nothing relative and nothing under the admin API is requested.
 */

const POSTS = '/backend/cms/journal/posts';

test('a post’s content in the preview partial: no application styles, no request to the API or a relative image', async ({
  page,
  baseURL,
}) => {
  const api = await apiAs();
  const tag = uniqueTag('scope');
  const host = new URL(baseURL ?? 'http://127.0.0.1').host;
  const content = [
    `<div class="cms-alert ${tag}-alert">Session expired — Sign in again <a class="cms-button cms-primary" href="https://evil.example/login">Sign in</a></div>`,
    '',
    `![api image](/backend/api/v1/${tag}-api.png) ![relative image](${tag}-relative.png) ![dotted](../../api/v1/${tag}-dotted.png)`,
    '',
    `<img src="//${host}/backend/api/v1/${tag}-host.png" alt="host image"> <img src="/backend/assets/_files/${tag}-kept.png" alt="kept image">`,
  ].join('\n');
  const created = await api.post(`${API}/cms/journal/posts`, { data: { title: `${tag} post`, slug: tag, content } });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).data.id as number;
  const requested: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes(tag)) requested.push(new URL(request.url()).pathname);
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, `${POSTS}/update/${id}`);
  const partial = page.locator('cms-field[data-name="preview"] cms-partial');
  const alert = partial.getByText('Session expired — Sign in again');
  await expect(alert).toBeVisible();
  // The content's own class stays; the application's are gone.
  await expect(alert).toHaveAttribute('class', `${tag}-alert`);
  const link = partial.getByRole('link', { name: 'Sign in' });
  await expect(link).not.toHaveAttribute('class', /./);
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(partial.locator('[class*="cms-"]')).toHaveCount(0);
  // Computed: the link is not the primary button, the block is not the alert.
  const save = page.getByRole('button', { name: 'Save', exact: true });
  const background = (locator: typeof link) => locator.evaluate((element) => getComputedStyle(element).backgroundColor);
  expect(await background(save)).not.toBe('rgba(0, 0, 0, 0)');
  expect(await background(link)).toBe('rgba(0, 0, 0, 0)');
  expect(await link.evaluate((element) => getComputedStyle(element).borderTopWidth)).toBe('0px');
  expect(await alert.evaluate((element) => getComputedStyle(element).borderInlineStartWidth)).toBe('0px');
  // Refused images are their text; the root-relative image outside the API is still shown.
  for (const alt of ['api image', 'relative image', 'dotted', 'host image']) {
    await expect(partial.getByRole('img', { name: alt })).toHaveCount(0);
    await expect(partial).toContainText(alt);
  }
  await expect(partial.getByRole('img', { name: 'kept image' })).toHaveCount(1);
  await expect.poll(() => requested).toContain(`/backend/assets/_files/${tag}-kept.png`);
  await screenshot(page, 'partial-content-scoped');
  // The preview screen shows the same partial under the same rule.
  await page.goto(`${POSTS}/preview/${id}`);
  await expect(page.locator('cms-partial').getByText('Session expired — Sign in again')).toBeVisible();
  await expect(page.locator('cms-partial [class*="cms-"]')).toHaveCount(0);
  expect(requested.filter((path) => !path.endsWith('-kept.png'))).toEqual([]);
  expect(errors).toEqual([]);
  await api.dispose();
});
