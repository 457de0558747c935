import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { cookieHeader, cookieLogin, XHR } from '../../../../test/support/auth.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { startBlogAdmin } from '../support/blog.ts';

/*
 * Images from the markdown editor of a post (docs/journal.md, "Media upload"): the posts' `content`
 * field names the journal's media upload as its `uploadRoute`, the admin's browser reaches it with
 * the cookie session and `X-Requested-With`, and the URL it answers survives the markdown preview's
 * sanitizer and is served by the host.
 */
const ACCESS = 'cms.journal.access_posts';

describe('the media upload from the markdown editor', () => {
  let t: TestAdmin;
  let editor: Client;

  beforeAll(async () => {
    t = await startBlogAdmin();
    editor = await signIn(t, { permissions: { [ACCESS]: 1 } });
  });
  afterAll(() => t.close());

  it('the posts’ content field names the media upload in its FormField', async () => {
    const res = await editor.get('cms/journal/posts/schema/form');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const content = (res.body.data.fields as Array<Record<string, unknown>>).find((field) => field.name === 'content');
    expect(content).toMatchObject({ type: 'markdown', uploadRoute: '/_journal/api/v1/media/upload' });
    const title = (res.body.data.fields as Array<Record<string, unknown>>).find((field) => field.name === 'title');
    expect(title).not.toHaveProperty('uploadRoute');
  });

  it('an upload on the cookie session answers a root-relative URL that the preview keeps and the host serves', async () => {
    const admin = await t.createAdmin({ permissions: { [ACCESS]: 1 } });
    const cookie = cookieHeader(await cookieLogin(t, admin));
    const image = await sharp({ create: { width: 12, height: 8, channels: 3, background: { r: 20, g: 160, b: 90 } } })
      .png()
      .toBuffer();
    const uploaded = await t.http
      .post('/_journal/api/v1/media/upload')
      .set('Cookie', cookie)
      .set(XHR)
      .attach('file', image, 'Editor Shot.png');
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const url = uploaded.body.data.url as string;
    expect(url).toMatch(/^\/backend\/assets\/_files\/journal\/Editor-Shot(-\d+)?\.png$/);

    const preview = await t.http
      .post('/backend/api/v1/markdown/preview')
      .set('Cookie', cookie)
      .set(XHR)
      .send({ markdown: `Before\n\n![Editor Shot](${url})` });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.data.html).toContain(`<img src="${url}" alt="Editor Shot">`);

    const served = await t.http.get(url);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
  });
});
