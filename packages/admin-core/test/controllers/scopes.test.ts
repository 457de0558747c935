import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { ENGINE_TABLES, enginePlugin, LABELS, NOTES, NOTES_PERMISSION } from '../fixtures/engine.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';

/**
 * Scopes that depend on the principal, relation scopes and locks, and hooks that refuse writes,
 * through the test plugin's `test/engine/notes` (see engine-plugin.ts).
 */
describe('scopes, relation locks and refusing hooks', () => {
  let t: TestAdmin;
  let su: Client;
  let ann: Client;
  let bob: Client;
  let open: number; // public label
  let other: number; // public label
  let hidden: number; // private: out of the relation scope
  let locked: number; // public but locked for non-superusers

  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node', plugins: [enginePlugin] });
    su = await signIn(t, { isSuperuser: true });
    ann = await signIn(t, { permissions: { [NOTES_PERMISSION]: 1 } });
    bob = await signIn(t, { permissions: { [NOTES_PERMISSION]: 1 } });
    const label = async (name: string, isPublic = true, isLocked = false) =>
      Number(
        (
          await t.sql<{ id: number }>('insert into test_engine_labels (name, is_public, is_locked) values (?, ?, ?) returning id', [
            name,
            isPublic,
            isLocked,
          ])
        )[0]!.id,
      );
    open = await label('open');
    other = await label('other');
    hidden = await label('hidden', false);
    locked = await label('locked', true, true);
  });
  afterAll(() => t.close());

  const note = async (client: Client, body: Record<string, unknown>) => {
    const res = await client.post(NOTES, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as Record<string, unknown> & { id: number };
  };

  it('the list scope shows each admin their own notes; a superuser sees all', async () => {
    await note(ann, { title: 'ann list 1' });
    await note(ann, { title: 'ann list 2' });
    await note(bob, { title: 'bob list 1' });
    const titles = async (client: Client) =>
      (await client.get(NOTES, { search: 'list', per_page: '10', sort: 'title' })).body.data.map((row: { title: string }) => row.title);
    expect(await titles(ann)).toEqual(['ann list 1', 'ann list 2']);
    expect(await titles(bob)).toEqual(['bob list 1']);
    expect(await titles(su)).toEqual(['ann list 1', 'ann list 2', 'bob list 1']);
    const meta = (await bob.get(NOTES, { search: 'list' })).body.meta;
    expect(meta).toEqual({ last_page: 1, page: 1, per_page: 5, total: 1 });
  });

  it('a record out of the form scope is 404 on every record route, and nothing changes', async () => {
    const bobs = await note(bob, { title: 'bob private' });
    const before = await snapshot(t, ENGINE_TABLES);
    expect((await ann.get(`${NOTES}/${bobs.id}`)).status).toBe(404);
    expect((await ann.put(`${NOTES}/${bobs.id}`, { title: 'stolen' })).status).toBe(404);
    // The record is looked up before the body's refusals are answered (one round of refusals needs
    // its stored values: docs/controllers.md), so an unknown key does not tell a hidden record apart.
    expect((await ann.put(`${NOTES}/${bobs.id}`, { nope: 1 })).status).toBe(404);
    expect((await ann.delete(`${NOTES}/${bobs.id}`)).status).toBe(404);
    // No scoped row in the selection: nothing deleted.
    expect((await ann.post(`${NOTES}/bulk-delete`, { ids: [bobs.id] })).body).toEqual({ data: { deleted: 0 }, meta: {} });
    expect(await snapshot(t, ENGINE_TABLES)).toEqual(before);
    expect((await su.get(`${NOTES}/${bobs.id}`)).status).toBe(200);
  });

  it('bulk-delete of a partly scoped selection is 409 and deletes nothing', async () => {
    const mine = await note(ann, { title: 'ann bulk', labels: [open] });
    const theirs = await note(bob, { title: 'bob bulk' });
    const before = await snapshot(t, ENGINE_TABLES);
    const res = await ann.post(`${NOTES}/bulk-delete`, { ids: [mine.id, theirs.id] });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('bulk_partly_scoped');
    expect(await snapshot(t, ENGINE_TABLES)).toEqual(before);
    // The same selection for a superuser is fully in scope.
    expect((await su.post(`${NOTES}/bulk-delete`, { ids: [mine.id, theirs.id] })).body.data).toEqual({ deleted: 2 });
  });

  it('relation ids are revalidated through the relation scope: 422 with full rollback', async () => {
    const mine = await note(ann, { title: 'ann rel', labels: [open] });
    const before = await snapshot(t, ENGINE_TABLES);
    expect422(await ann.put(`${NOTES}/${mine.id}`, { title: 'changed', labels: [other, hidden] }), ['labels']);
    expect422(await ann.put(`${NOTES}/${mine.id}`, { title: 'changed', label: hidden }), ['label']);
    expect422(await ann.post(NOTES, { title: 'new', labels: [hidden] }), ['labels']);
    expect(await snapshot(t, ENGINE_TABLES)).toEqual(before);
    // A superuser is bound by the relation scope too.
    expect422(await su.put(`${NOTES}/${mine.id}`, { labels: [hidden] }), ['labels']);
  });

  it('a change touching a locked id is 403 before any write, naming the field', async () => {
    const mine = await note(ann, { title: 'ann lock', labels: [open] });
    const before = await snapshot(t, ENGINE_TABLES);
    for (const body of [{ title: 'changed', labels: [open, locked] }, { label: locked }, { labels: [locked], label: hidden }]) {
      const res = await ann.put(`${NOTES}/${mine.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
      expect(Object.keys(res.body.error.details)).toEqual([Object.hasOwn(body, 'labels') ? 'labels' : 'label']);
    }
    expect(await snapshot(t, ENGINE_TABLES)).toEqual(before);
    // A superuser may link it; then the admin may keep it (any order) but not remove it.
    const linked = await su.put(`${NOTES}/${mine.id}`, { labels: [open, locked] });
    expect(linked.status).toBe(200);
    const reordered = await ann.put(`${NOTES}/${mine.id}`, { labels: [locked, open] });
    expect(reordered.status).toBe(200);
    expect(reordered.body.data.labels).toEqual([locked, open]);
    const removed = await ann.put(`${NOTES}/${mine.id}`, { labels: [open] });
    expect(removed.status).toBe(403);
    expect((await ann.get(`${NOTES}/${mine.id}`)).body.data.labels).toEqual([locked, open]);
  });

  it('a hook that refuses a write answers 403, rolls back, and names fields (localized)', async () => {
    const before = await snapshot(t, ENGINE_TABLES);
    const res = await ann.locale('de').post(NOTES, { title: 'forbidden', rank: 3, labels: [open] });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect(res.body.error.details).toEqual({ title: [expect.not.stringMatching(/::/)], rank: ['Not this rank.'] });
    expect(res.body.error.details.title[0]).not.toBe((await ann.post(NOTES, { title: 'forbidden' })).body.error.details.title[0]);
    const mine = await note(ann, { title: 'ann hook' });
    expect((await ann.put(`${NOTES}/${mine.id}`, { title: 'forbidden' })).status).toBe(403);
    expect((await ann.get(`${NOTES}/${mine.id}`)).body.data.title).toBe('ann hook');
    const after = await snapshot(t, ENGINE_TABLES);
    expect(after.test_engine_notes).toHaveLength(before.test_engine_notes!.length + 1);
  });

  it('a refusal after the flush rolls back the written rows (pivot included)', async () => {
    const before = await snapshot(t, ENGINE_TABLES);
    const res = await ann.post(NOTES, { title: 'refused after save', labels: [open, other] });
    expect(res.status).toBe(403);
    expect(res.body.error.details).toEqual({ title: [expect.any(String)] });
    const mine = await note(ann, { title: 'ann after', labels: [open] });
    const during = await snapshot(t, ENGINE_TABLES);
    expect((await ann.put(`${NOTES}/${mine.id}`, { title: 'refused after save', labels: [other] })).status).toBe(403);
    expect(await snapshot(t, ENGINE_TABLES)).toEqual(during);
    expect(during.test_engine_notes).toHaveLength(before.test_engine_notes!.length + 1);
  });

  it('a beforeDelete refusal is 403 on delete and bulk-delete; nothing is deleted', async () => {
    const keep = await note(ann, { title: 'keep' });
    const drop = await note(ann, { title: 'drop' });
    const before = await snapshot(t, ENGINE_TABLES);
    expect((await ann.delete(`${NOTES}/${keep.id}`)).status).toBe(403);
    expect((await ann.post(`${NOTES}/bulk-delete`, { ids: [drop.id, keep.id] })).status).toBe(403);
    expect(await snapshot(t, ENGINE_TABLES)).toEqual(before);
  });

  it('read-only and context-hidden fields are refused; a context field is accepted where it shows', async () => {
    expect422(await ann.post(NOTES, { title: 'x', code: 'A1' }), ['code']);
    expect422(await ann.post(NOTES, { title: 'x', remark: 'only on update' }), ['remark']);
    const mine = await note(ann, { title: 'ann ctx' });
    expect422(await ann.put(`${NOTES}/${mine.id}`, { code: 'A1' }), ['code']);
    const res = await ann.put(`${NOTES}/${mine.id}`, { remark: 'now' });
    expect(res.status).toBe(200);
    expect(res.body.data.remark).toBe('now');
    expect(res.body.data.code).toBeNull();
  });

  it('a virtual (password) value reaches the hook and never appears in a record', async () => {
    const created = await ann.post(NOTES, { title: 'ann pin', pin: 'secret-pin-1234' });
    expect(created.status).toBe(201);
    expect(created.body.data).not.toHaveProperty('pin');
    expect(JSON.stringify(created.body)).not.toContain('secret-pin-1234');
    const rows = await t.sql<{ pin_length: number }>('select pin_length from test_engine_notes where id = ?', [created.body.data.id]);
    expect(rows[0]!.pin_length).toBe(15);
    const shown = await ann.get(`${NOTES}/${created.body.data.id}`);
    expect(shown.body.data).not.toHaveProperty('pin');
    const list = await ann.get(NOTES, { search: 'ann pin' });
    expect(list.body.data[0]).not.toHaveProperty('pin');
  });

  it('row states: only the three known states, deduplicated; absent when none applies', async () => {
    const a = await note(ann, { title: 'states closed', status: 'closed' });
    const b = await note(ann, { title: 'states gone', status: 'gone' });
    await note(ann, { title: 'states open' });
    const res = await ann.get(NOTES, { search: 'states', per_page: '10' });
    expect(res.body.meta.row_states).toEqual({ [a.id]: ['negative'], [b.id]: ['deleted', 'disabled'] });
    const openOnly = await ann.get(NOTES, { search: 'states', 'filter[status]': 'open' });
    expect(openOnly.body.data).toHaveLength(1);
    expect(openOnly.body.meta).not.toHaveProperty('row_states');
  });

  it('switch and text filters', async () => {
    await note(ann, { title: 'filters one', rank: 1 });
    await note(ann, { title: 'filters zero', rank: 0 });
    const ranked = await ann.get(NOTES, { search: 'filters', 'filter[ranked]': '1' });
    expect(ranked.body.data.map((row: { title: string }) => row.title)).toEqual(['filters one']);
    const unranked = await ann.get(NOTES, { search: 'filters', 'filter[ranked]': 'false' });
    expect(unranked.body.data.map((row: { title: string }) => row.title)).toEqual(['filters zero']);
    expect422(await ann.get(NOTES, { 'filter[ranked]': 'maybe' }), ['filter[ranked]']);
    expect((await ann.get(NOTES, { 'filter[code]': '%' })).body.meta.total).toBe(0);
  });

  it('a rule only the database knows (a check constraint) is a 422 on its field', async () => {
    const mine = await note(ann, { title: 'ann check' });
    const before = await snapshot(t, ENGINE_TABLES);
    expect422(await ann.put(`${NOTES}/${mine.id}`, { rank: 13, title: 'changed' }), ['rank']);
    expect422(await ann.post(NOTES, { title: 'thirteen', rank: 13 }), ['rank']);
    expect(await snapshot(t, ENGINE_TABLES)).toEqual(before);
  });

  it('deleting a record other rows still reference is a 422, and nothing is deleted', async () => {
    const used = Number((await t.sql<{ id: number }>("insert into test_engine_labels (name) values ('used') returning id"))[0]!.id);
    const spare = Number((await t.sql<{ id: number }>("insert into test_engine_labels (name) values ('spare') returning id"))[0]!.id);
    await note(ann, { title: 'uses a label', label: used });
    const before = await snapshot(t, ENGINE_TABLES);
    const res = await su.delete(`${LABELS}/${used}`);
    expect422(res, ['id']);
    expect(res.body.error.details.id[0]).toMatch(/still in use/);
    expect422(await su.post(`${LABELS}/bulk-delete`, { ids: [spare, used] }), ['ids']);
    expect(await snapshot(t, ENGINE_TABLES)).toEqual(before);
    expect((await su.delete(`${LABELS}/${spare}`)).body.data).toEqual({ deleted: 1 });
  });

  it('a list without searchable columns refuses `search` (an empty one is fine)', async () => {
    expect422(await su.get(LABELS, { search: 'used' }), ['search']);
    expect((await su.get(LABELS, { search: '' })).status).toBe(200);
    expect((await su.get(`${LABELS}/schema/list`)).body.data.showSearch).toBe(false);
  });

  it('relation list columns show labels; belongsTo and belongsToMany in one page', async () => {
    const mine = await note(ann, { title: 'columns', label: other, labels: [other, open] });
    const res = await ann.get(NOTES, { search: 'columns' });
    expect(res.body.data).toEqual([
      { id: mine.id, title: 'columns', rank: null, status: 'open', label: 'other', labels: ['other', 'open'] },
    ]);
  });
});
