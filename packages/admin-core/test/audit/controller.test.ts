import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import type { Client } from '../../../../test/support/client.ts';
import { NOTES } from '../fixtures/engine.ts';
import { AUDIT, auditRows, createNote as noteOf, startAudit, type AuditRow } from './support.ts';

/** `cms/backend/audit` (docs/audit.md): read-only, for admins with `cms.backend.view_audit`. */
describe('the audit controller', () => {
  let t: TestAdmin;
  let su: Client;
  let editor: Client;
  let viewer: Client;

  beforeAll(async () => {
    ({ t, su, editor, viewer } = await startAudit());
  });
  afterAll(() => t.close());
  beforeEach(() => t.sql('delete from cms_audit'));

  const rows = () => auditRows(t);
  const createNote = (body: Record<string, unknown> = {}) => noteOf(editor, body);

  it('is for admins with cms.backend.view_audit: 403 without it, the rows with it', async () => {
    await createNote({ title: 'seen' });
    expect((await editor.get(AUDIT)).status).toBe(403);
    expect((await editor.get(`${AUDIT}/schema/list`)).status).toBe(403);
    const list = await viewer.get(AUDIT);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data).toEqual([
      {
        id: expect.any(Number),
        created_at: expect.any(String),
        actor: 'editor',
        action: 'create',
        target: NOTES,
        record_id: expect.any(Number),
        detail: '',
        fields: ['title'],
      },
    ]);
    // The entry shows under System, for the permission alone.
    const navigation = await viewer.get('navigation');
    const system = (navigation.body.data as Array<{ code: string; sideMenu: Array<{ code: string; controller: string }> }>).find(
      (entry) => entry.code === 'system',
    );
    expect(system?.sideMenu.map((item) => [item.code, item.controller])).toEqual([['audit', AUDIT]]);
    const shown = await viewer.get(`${AUDIT}/${list.body.data[0].id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({ actor: 'editor', action: 'create', fields: ['title'] });
  });

  it('is read-only: no create, update, delete or bulk delete route', async () => {
    await createNote();
    const [row] = await rows();
    expect((await su.post(AUDIT, {})).status).toBe(404);
    expect((await su.put(`${AUDIT}/${row!.id}`, { action: 'x' })).status).toBe(404);
    expect((await su.delete(`${AUDIT}/${row!.id}`)).status).toBe(404);
    expect((await su.post(`${AUDIT}/bulk-delete`, { ids: [row!.id] })).status).toBe(404);
    expect(await rows()).toHaveLength(1);
    // Reading the log writes nothing to it.
    expect((await su.get(AUDIT)).status).toBe(200);
    expect(await rows()).toHaveLength(1);
  });

  it('sorts by time, newest first, and filters by action kind and admin, and searches', async () => {
    const id = await createNote({ title: 'one' });
    await editor.put(`${NOTES}/${id}`, { title: 'two' });
    await su.put('settings/shop', { title: 'Shop by root' });
    const all = await viewer.get(AUDIT);
    expect(all.body.data.map((row: AuditRow) => row.action)).toEqual(['settings', 'update', 'create']);
    const updates = await viewer.get(AUDIT, { 'filter[action]': 'update' });
    expect(updates.body.data.map((row: AuditRow) => row.action)).toEqual(['update']);
    const byRoot = await viewer.get(AUDIT, { 'filter[admin]': String(su.id) });
    expect(byRoot.body.data.map((row: AuditRow) => row.actor)).toEqual(['root']);
    const searched = await viewer.get(AUDIT, { search: 'shop' });
    expect(searched.body.data.map((row: AuditRow) => row.target)).toEqual(['shop']);
  });

  it('lists with a constant number of SQL statements', async () => {
    await t.sql(
      `insert into cms_audit (admin_id, actor, action, target, record_id, fields)
         select ?, 'editor', 'update', 'test/engine/notes', g, '["title"]' from generate_series(1, 150) g`,
      [editor.id],
    );
    const count = async (query: Record<string, string>) => {
      t.queries.length = 0;
      const res = await viewer.get(AUDIT, query);
      expect(res.status).toBe(200);
      return { count: t.queries.length, rows: res.body.data.length as number };
    };
    const small = await count({ per_page: '20' });
    const large = await count({ per_page: '100' });
    const filtered = await count({ per_page: '100', 'filter[action]': 'update', 'filter[admin]': String(editor.id) });
    expect([small.rows, large.rows, filtered.rows]).toEqual([20, 100, 100]);
    expect(large.count).toBe(small.count);
    expect(filtered.count).toBe(small.count);
    expect(small.count).toBeLessThanOrEqual(3);
  });
});
