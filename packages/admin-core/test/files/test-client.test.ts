import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type StartedTestAdmin, type TestClient } from '../../src/testing.ts';
import { ALBUMS, ALBUMS_PERMISSION, filesPlugin } from '../fixtures/files.ts';
import { png } from './support.ts';

/*
 * The examples of docs/plugin-guide.md, "Requests with headers and uploads": `client.request`
 * with a multipart body and headers, an upload held under a session key and attached by the save.
 */
describe('TestClient.request: uploads and session keys', () => {
  let admin: StartedTestAdmin;
  let editor: TestClient;
  beforeAll(async () => {
    admin = await startTestAdmin({ plugins: [filesPlugin] });
    editor = await admin.signIn({ permissions: [ALBUMS_PERMISSION] });
  });
  afterAll(() => admin.close());

  it('uploads a file to a record (multipart), with X-Upload-Id', async () => {
    const created = await editor.post(ALBUMS, { title: 'Harbour', slug: 'harbour' });
    expect(created.status).toBe(201);
    const form = new FormData();
    form.append('file_data', new Blob([await png()], { type: 'image/png' }), 'harbour.png');
    const res = await editor.request('POST', `${ALBUMS}/${created.body.data.id}/files/gallery`, {
      body: form,
      headers: { 'X-Upload-Id': 'upload-1' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ file_name: 'harbour.png', pending: false });
  });

  it('holds an upload under X-Session-Key until the create sent with the same key attaches it', async () => {
    const form = new FormData();
    form.append('file_data', new Blob([await png()], { type: 'image/png' }), 'cover.png');
    const pending = await editor.request('POST', `${ALBUMS}/0/files/cover_image`, {
      body: form,
      headers: { 'X-Session-Key': 'album-form-1' },
    });
    expect(pending.status, pending.text).toBe(201);
    expect(pending.body.data.pending).toBe(true);
    const created = await editor.request('POST', ALBUMS, {
      body: { title: 'Dunes', slug: 'dunes' },
      headers: { 'X-Session-Key': 'album-form-1' },
    });
    expect(created.status, created.text).toBe(201);
    const files = await editor.get(`${ALBUMS}/${created.body.data.id}/files/cover_image`);
    expect(files.body.data.map((file: { file_name: string; pending: boolean }) => [file.file_name, file.pending])).toEqual([
      ['cover.png', false],
    ]);
  });
});
