import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineEntity, p } from '@mikro-orm/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdminCore } from '../../src/adapter.ts';
import { defineController, definePlugin, type ControllerConfig } from '../../src/index.ts';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { expectError } from '../../../../test/support/auth.ts';
import { signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import {
  COPY_PERMISSION,
  committed,
  DUP_TABLES,
  duplicatePlugin,
  EVENTS,
  EVENTS_PERMISSION,
  PUBLISH_PERMISSION,
  seen,
} from '../fixtures/duplicate.ts';
import { png, storeState, upload } from '../files/support.ts';
import { assertConfigError } from '../support/config-error.ts';

/*
 * The built-in record action `duplicate` and the action context's `files`, `settings` and
 * `afterCommit` (docs/actions.md, "Duplicate", "Files", "The action context").
 */

describe('duplicate', () => {
  let t: TestAdmin;
  /** Events, publish and copy. */
  let su: Client;
  let editor: Client;
  /** Events and copy, not publish. */
  let copier: Client;
  /** Events only. */
  let plain: Client;
  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [duplicatePlugin] });
    su = await signIn(t, { isSuperuser: true });
    editor = await signIn(t, { permissions: { [EVENTS_PERMISSION]: 1, [PUBLISH_PERMISSION]: 1, [COPY_PERMISSION]: 1 } });
    copier = await signIn(t, { permissions: { [EVENTS_PERMISSION]: 1, [COPY_PERMISSION]: 1 } });
    plain = await signIn(t, { permissions: { [EVENTS_PERMISSION]: 1 } });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    seen.length = 0;
    committed.length = 0;
  });

  let counter = 0;
  /** An event with two tags (pivot weights 3 and 7), two speakers, a session; answers its id. */
  async function seedEvent(values: { title?: string; status?: string; capacity?: number } = {}): Promise<number> {
    counter += 1;
    const [event] = await t.sql<{ id: number }>(
      `insert into test_dup_events (title, slug, status, is_public, capacity, details, created_at)
       values (?, ?, ?, true, ?, ?::jsonb, '2020-01-01T00:00:00Z') returning id`,
      [
        values.title ?? `Event ${counter}`,
        `event-${counter}`,
        values.status ?? 'draft',
        values.capacity ?? 120,
        JSON.stringify({ room: 'A', seats: [1, 2] }),
      ],
    );
    const id = Number(event!.id);
    const tags = await t.sql<{ id: number }>(`insert into test_dup_tags (name) values ('jazz'), ('folk') returning id`);
    await t.sql('insert into test_dup_event_tags (event_id, tag_id, weight) values (?, ?, 3), (?, ?, 7)', [
      id,
      tags[0]!.id,
      id,
      tags[1]!.id,
    ]);
    await t.sql(`insert into test_dup_speakers (name, event_id) values ('Ada', ?), ('Grace', ?)`, [id, id]);
    await t.sql(`insert into test_dup_sessions (name, event_id) values ('Morning', ?)`, [id]);
    return id;
  }

  /** Attaches a poster (public PNG) and a protected text document through the upload route. */
  async function seedFiles(id: number): Promise<void> {
    expect((await upload(t, su, EVENTS, id, 'poster', await png(), 'poster.png')).status).toBe(201);
    expect((await upload(t, su, EVENTS, id, 'documents', Buffer.from(`programme of ${id}`), 'programme.txt')).status).toBe(201);
  }

  const filesOf = (id: number) =>
    t.sql<{ id: number; disk_name: string; file_name: string; field: string; title: string; sort_order: number; thumbs: unknown }>(
      'select id, disk_name, file_name, field, title, sort_order, thumbs from cms_files where attachment_type = ? and attachment_id = ? order by field, sort_order',
      [EVENTS, id],
    );
  const thumbsOf = (value: unknown): string[] => (typeof value === 'string' ? JSON.parse(value) : (value as string[]));

  it('copies the columns with the overrides, the links, the named children and the files, and names the copy', async () => {
    const id = await seedEvent();
    await seedFiles(id);
    const res = await editor.post(`${EVENTS}/${id}/actions/duplicate`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const copyId = res.body.data.data.id as number;
    expect(copyId).not.toBe(id);
    expect(res.body.data).toEqual({ fill: {}, message: 'Duplicated.', data: { id: copyId, redirect: `${EVENTS}/update/${copyId}` } });
    expect((await editor.locale('de').post(`${EVENTS}/${id}/actions/duplicate`)).status).toBe(422); // the slug `-copy` exists now

    const [original] = await t.sql<Record<string, unknown>>('select * from test_dup_events where id = ?', [id]);
    const [copy] = await t.sql<Record<string, unknown>>('select * from test_dup_events where id = ?', [copyId]);
    expect(copy).toMatchObject({
      title: `${original!.title} (copy)`,
      slug: `${original!.slug}-copy`,
      status: 'draft',
      is_public: false,
      capacity: 120,
      details: { room: 'A', seats: [1, 2] },
    });
    // `onCreate` columns are the entity's own: the copy's `created_at` is new.
    expect(new Date(String(copy!.created_at)).getFullYear()).toBeGreaterThan(2020);

    const links = (event: number) => t.sql('select tag_id, weight from test_dup_event_tags where event_id = ? order by tag_id', [event]);
    expect(await links(copyId)).toEqual(await links(id));
    expect(await links(copyId)).toHaveLength(2);
    const names = async (table: string, event: number) =>
      (await t.sql<{ name: string }>(`select name from ${table} where event_id = ? order by id`, [event])).map((row) => row.name);
    expect(await names('test_dup_speakers', copyId)).toEqual(['Ada', 'Grace']);
    expect(await names('test_dup_speakers', id)).toEqual(['Ada', 'Grace']);
    expect(await names('test_dup_sessions', copyId)).toEqual([]);

    const before = await filesOf(id);
    const after = await filesOf(copyId);
    expect(after.map((row) => [row.field, row.file_name, row.sort_order])).toEqual(
      before.map((row) => [row.field, row.file_name, row.sort_order]),
    );
    for (const [index, row] of after.entries()) {
      const source = before[index]!;
      // New blobs, never shared: same bytes under new keys, thumbnails included.
      expect(row.disk_name).not.toBe(source.disk_name);
      expect(await readFile(join(t.storageRoot, row.disk_name))).toEqual(await readFile(join(t.storageRoot, source.disk_name)));
      expect(thumbsOf(row.thumbs)).toHaveLength(thumbsOf(source.thumbs).length);
      for (const thumb of thumbsOf(row.thumbs)) expect(thumbsOf(source.thumbs)).not.toContain(thumb);
    }
    // The protected document downloads from both records, with the same bytes.
    const document = (rows: typeof before) => rows.find((row) => row.field === 'documents')!;
    const download = (event: number, fileId: number) =>
      t.http.get(`${API}/${EVENTS}/${event}/files/documents/${fileId}/download`).set('Authorization', `Bearer ${editor.token}`);
    const first = await download(id, document(before).id);
    const second = await download(copyId, document(after).id);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.text).toBe(first.text);
    expect(second.text).toBe(`programme of ${id}`);

    // Audit: a create row for the copy (from the original), the action's row on the original, a file row.
    const audit = await t.sql<{ action: string; record_id: number; detail: string }>(
      `select action, record_id, detail from cms_audit where target = ? and (record_id = ? or record_id = ?) and request_id is not null
       and action in ('create', 'action', 'file') and detail <> 'upload' order by id`,
      [EVENTS, id, copyId],
    );
    expect(audit.map((row) => [row.action, Number(row.record_id), row.detail])).toEqual([
      ['file', copyId, 'copy'],
      ['create', copyId, `duplicate:${id}`],
      ['action', id, 'record:duplicate'],
    ]);
    // The hooks ran as for a create, with `settings` and `afterCommit`; the task ran once committed.
    expect(seen.find((entry) => entry.where === 'afterSave:create')).toEqual({
      where: 'afterSave:create',
      settings: 'function',
      afterCommit: 'function',
    });
    await expect.poll(() => committed).toContain(`saved:${original!.slug}-copy`);
  });

  it("copies the children's files of a relation's child form, under new keys", async () => {
    const id = await seedEvent();
    const [speaker] = await t.sql<{ id: number }>('select id from test_dup_speakers where event_id = ? order by id limit 1', [id]);
    const child = `${EVENTS}#speakers`;
    await t.core.storage.put('protected/dup/slides.txt', Buffer.from('slides of Ada'), 'text/plain');
    await t.sql(
      `insert into cms_files (disk_name, file_name, file_size, content_type, field, attachment_type, attachment_id, is_public, sort_order)
       values ('protected/dup/slides.txt', 'slides.txt', 13, 'text/plain; charset=utf-8', 'slides', ?, ?, false, 0)`,
      [child, speaker!.id],
    );
    const res = await editor.post(`${EVENTS}/${id}/actions/duplicate`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [copied] = await t.sql<{ id: number }>('select id from test_dup_speakers where event_id = ? order by id limit 1', [
      res.body.data.data.id,
    ]);
    const rows = await t.sql<{ disk_name: string; file_name: string }>(
      'select disk_name, file_name from cms_files where attachment_type = ? and attachment_id = ?',
      [child, copied!.id],
    );
    expect(rows.map((row) => row.file_name)).toEqual(['slides.txt']);
    expect(rows[0]!.disk_name).not.toBe('protected/dup/slides.txt');
    expect((await t.core.storage.get(rows[0]!.disk_name))?.toString()).toBe('slides of Ada');
  });

  it('is listed in meta.actions with the core label, for admins who may run it', async () => {
    const id = await seedEvent();
    const listed = (await editor.get(`${EVENTS}/${id}`)).body.meta.actions.map((action: { name: string }) => action.name);
    expect(listed).toContain('duplicate');
    const entry = (await editor.locale('de').get(`${EVENTS}/${id}`)).body.meta.actions.find(
      (action: { name: string }) => action.name === 'duplicate',
    );
    expect(entry).toEqual({ name: 'duplicate', label: 'Duplizieren' });
    const unlisted = (await plain.get(`${EVENTS}/${id}`)).body.meta.actions.map((action: { name: string }) => action.name);
    expect(unlisted).not.toContain('duplicate');
  });

  it('refuses without its permission, and a copied value the admin may not write, like a create: 403, nothing written', async () => {
    const id = await seedEvent();
    const published = await seedEvent({ status: 'published' });
    const before = await snapshot(t, DUP_TABLES);
    expectError(await plain.post(`${EVENTS}/${id}/actions/duplicate`), 403, 'forbidden');
    const refused = await copier.post(`${EVENTS}/${published}/actions/duplicate`);
    expectError(refused, 403, 'forbidden');
    expect(Object.keys(refused.body.error.details)).toEqual(['status']);
    expect(await snapshot(t, DUP_TABLES)).toEqual(before);
    // A draft is copied by the same admin.
    expect((await copier.post(`${EVENTS}/${id}/actions/duplicate`)).status).toBe(200);
    expectError(await editor.post(`${EVENTS}/999999/actions/duplicate`), 404, 'not_found');
  });

  it('a unique column the overrides leave as it was is a 422 on its field; nothing is written, no blob is left', async () => {
    const id = await seedEvent({ title: 'clash' });
    await seedFiles(id);
    const before = await snapshot(t, DUP_TABLES);
    const store = await storeState(t);
    const res = await editor.post(`${EVENTS}/${id}/actions/duplicate`);
    expectError(res, 422, 'validation_failed');
    expect(res.body.error.details).toEqual({ slug: ['This value is already taken.'] });
    expect(await snapshot(t, DUP_TABLES)).toEqual(before);
    expect(await storeState(t)).toEqual(store);
  });

  it("runs a create's rules on the copy, in one round: required, a field's validate, beforeSave's Validation; 422, nothing written", async () => {
    const refused = async (values: { title?: string; capacity?: number }) => {
      const id = await seedEvent(values);
      await seedFiles(id);
      const before = await snapshot(t, DUP_TABLES);
      const store = await storeState(t);
      const res = await editor.post(`${EVENTS}/${id}/actions/duplicate`);
      expectError(res, 422, 'validation_failed');
      expect(await snapshot(t, DUP_TABLES)).toEqual(before);
      expect(await storeState(t)).toEqual(store);
      return res.body.error.details;
    };
    const required = ['This field is required.'];
    expect(await refused({ title: 'blank' })).toEqual({ title: required });
    expect(await refused({ title: 'blank', capacity: 13 })).toEqual({ title: required, capacity: ['Not 13.'] });
    // The hook's refusal joins the others; alone, it is answered as the hook threw it.
    expect(await refused({ title: 'blank', capacity: 99 })).toEqual({ title: required, capacity: ['The hook refuses 99.'] });
    expect(await refused({ capacity: 99 })).toEqual({ capacity: ['The hook refuses 99.'] });
    // A create answers the same for the same values.
    expect((await editor.post(EVENTS, { title: 'x', slug: `created-${counter}`, capacity: 13 })).body.error.details).toEqual({
      capacity: ['Not 13.'],
    });
    expect(seen.filter((entry) => entry.where === 'afterSave:create')).toEqual([]);
  });

  it('a hook that throws after the copy rolls everything back, the copied blobs included', async () => {
    const id = await seedEvent({ title: 'explode' });
    await seedFiles(id);
    const before = await snapshot(t, DUP_TABLES);
    const store = await storeState(t);
    const audit = await t.sql('select count(*) as n from cms_audit');
    expectError(await editor.post(`${EVENTS}/${id}/actions/duplicate`), 500, 'internal_error');
    expect(await snapshot(t, DUP_TABLES)).toEqual(before);
    expect(await storeState(t)).toEqual(store);
    expect(await t.sql('select count(*) as n from cms_audit')).toEqual(audit);
    expect(committed).toEqual([]);
  });

  it('a failure after the files were copied deletes their blobs', async () => {
    const id = await seedEvent({ title: 'files-first' });
    await seedFiles(id);
    const before = await snapshot(t, DUP_TABLES);
    const store = await storeState(t);
    // The database refuses the copy's document, after the poster (blob and thumbnail) was copied.
    await t.sql(`create or replace function test_dup_refuse() returns trigger language plpgsql as $$
      begin if new.attachment_type = '${EVENTS}' and new.field = 'documents' and exists (select 1 from test_dup_events e where e.id = new.attachment_id and e.title like 'files-first (copy)') then
        raise exception 'refused by the test'; end if; return new; end $$`);
    await t.sql('create trigger test_dup_refuse before insert on cms_files for each row execute function test_dup_refuse()');
    try {
      expectError(await editor.post(`${EVENTS}/${id}/actions/duplicate`), 500, 'internal_error');
    } finally {
      await t.sql('drop trigger test_dup_refuse on cms_files');
    }
    expect(await snapshot(t, DUP_TABLES)).toEqual(before);
    // The poster's blob and thumbnail were copied before the document failed: both are gone again.
    expect(await storeState(t)).toEqual(store);
  });

  it('hooks of saves and deletes receive settings and afterCommit', async () => {
    const created = await editor.post(EVENTS, { title: 'Hooked', slug: `hooked-${Date.now()}` });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id as number;
    expect((await editor.delete(`${EVENTS}/${id}`)).status).toBe(200);
    expect(seen).toEqual([
      { where: 'afterSave:create', settings: 'function', afterCommit: 'function' },
      { where: 'beforeDelete', settings: 'function', afterCommit: 'function' },
    ]);
    await expect.poll(() => committed.length).toBe(2);
  });

  it('ctx.files attaches a file in the action, and lists it; the action context has settings, afterCommit and files', async () => {
    const id = await seedEvent();
    const res = await editor.post(`${EVENTS}/${id}/actions/attach_note`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.data).toMatchObject({
      file: { file_name: 'note.txt', content_type: 'text/plain; charset=utf-8', pending: false },
      count: 1,
    });
    expect(seen).toEqual([{ where: 'action', settings: 'function', afterCommit: 'function', files: 'object' }]);
    await expect.poll(() => committed).toContain(`action:event-${counter}`);
    const rows = await filesOf(id);
    expect(rows.map((row) => row.file_name)).toEqual(['note.txt']);
    const download = await t.http
      .get(`${API}/${EVENTS}/${id}/files/documents/${rows[0]!.id}/download`)
      .set('Authorization', `Bearer ${editor.token}`);
    expect(download.text).toBe(`note of event-${counter}`);
    const audit = await t.sql<{ detail: string }>(`select detail from cms_audit where target = ? and record_id = ? and action = 'file'`, [
      EVENTS,
      id,
    ]);
    expect(audit.map((row) => row.detail)).toEqual(['upload']);
  });

  it('ctx.files: a file attached by an action that then fails is gone, row and blob', async () => {
    const id = await seedEvent();
    const before = await snapshot(t, DUP_TABLES);
    const store = await storeState(t);
    const res = await editor.post(`${EVENTS}/${id}/actions/attach_then_fail`);
    expectError(res, 422, 'validation_failed');
    expect(await snapshot(t, DUP_TABLES)).toEqual(before);
    expect(await storeState(t)).toEqual(store);
  });

  it('ctx.files copies the files of one record to another, under new keys', async () => {
    const id = await seedEvent();
    const next = await seedEvent();
    expect(next).toBe(id + 1); // the fixture's action copies to the next id
    await seedFiles(id);
    const res = await editor.post(`${EVENTS}/${id}/actions/copy_files_to`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.data.copied.sort()).toEqual(['poster.png', 'programme.txt']);
    const source = await filesOf(id);
    const target = await filesOf(next);
    expect(target.map((row) => row.file_name)).toEqual(source.map((row) => row.file_name));
    expect(target.map((row) => row.disk_name).some((key) => source.some((row) => row.disk_name === key))).toBe(false);
  });
});

describe('duplicate at start-up', () => {
  const Thing = defineEntity({
    name: 'DuplicateCheckThing',
    tableName: 'duplicate_check_things',
    properties: {
      id: p.integer().primary(),
      title: p.string(),
      notes: () => p.oneToMany(Note).mappedBy('thing'),
    },
  });
  const Note = defineEntity({
    name: 'DuplicateCheckNote',
    tableName: 'duplicate_check_notes',
    properties: { id: p.integer().primary(), body: p.string(), thing: () => p.manyToOne(Thing) },
  });

  const start = (config: Partial<ControllerConfig>) =>
    AdminCore.create({
      secret: 'x'.repeat(40),
      database: { url: 'postgres://postgres@127.0.0.1:1/none' },
      logger: { info() {}, warn() {}, error() {} },
      plugins: [
        definePlugin({
          vendor: 'test',
          name: 'dupcheck',
          entities: [Thing, Note],
          controllers: [
            defineController({ name: 'things', entity: Thing, form: { fields: { title: { type: 'text' } } }, ...(config as object) }),
          ],
        }),
      ],
    }).catch((error: unknown) => error);

  it('refuses duplicate on a read-only controller or a singleton', async () => {
    assertConfigError(await start({ readOnly: true, duplicate: true }), 'action_unreachable', { key: 'duplicate' });
    assertConfigError(await start({ singleton: true, duplicate: {} }), 'action_unreachable', { key: 'duplicate' });
  });

  it('refuses a declared record action named duplicate, unknown keys and properties', async () => {
    const run = () => undefined;
    assertConfigError(
      await start({ duplicate: true, actions: { record: { duplicate: { label: 'Copy', run } } } }),
      'action_name_reserved',
      {
        key: 'actions.record.duplicate',
      },
    );
    assertConfigError(await start({ duplicate: { copies: 2 } as never }), 'controller_key_unknown', { key: 'duplicate.copies' });
    assertConfigError(await start({ duplicate: { values: { nope: 1 } as never } }), 'controller_value_invalid', {
      key: 'duplicate.values.nope',
    });
    assertConfigError(await start({ duplicate: { values: { id: 1 } as never } }), 'controller_value_invalid', {
      key: 'duplicate.values.id',
    });
    assertConfigError(await start({ duplicate: { children: ['title'] as never } }), 'controller_value_invalid', {
      key: 'duplicate.children.0',
    });
    assertConfigError(await start({ duplicate: { permissions: ['test.nope'] } }), 'permission_unknown', { key: 'duplicate.permissions' });
    assertConfigError(await start({ duplicate: 'yes' as never }), 'controller_value_invalid', { key: 'duplicate' });
  });

  it('types: values are typed against the entity', () => {
    defineController({
      name: 'things',
      entity: Thing,
      form: { fields: { title: { type: 'text' } } },
      duplicate: { values: { title: (title) => `${title.toUpperCase()} (copy)` }, children: ['notes'] },
    });
    // @ts-expect-error: a function answering another type
    defineController({ name: 'things', entity: Thing, duplicate: { values: { title: () => 1 } } });
    // @ts-expect-error: no such property
    defineController({ name: 'things', entity: Thing, duplicate: { children: ['nope'] } });
  });
});
