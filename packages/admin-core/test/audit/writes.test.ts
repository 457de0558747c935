import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API, type SeededAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { bearer, XHR } from '../../../../test/support/auth.ts';
import { ADMINS, type Client } from '../../../../test/support/client.ts';
import { ITEMS, SINGLE } from '../fixtures/actions.ts';
import { ITEMS as LAB_ITEMS } from '../fixtures/field-types.ts';
import { NOTES } from '../fixtures/engine.ts';
import { auditRows, auditText, createNote as noteOf, startAudit } from './support.ts';

/**
 * The audit log (docs/audit.md): every write through the admin appends a row in its own
 * transaction, naming who, what, which record and which fields, never a secret value; a write
 * that is refused or rolled back leaves none.
 */
describe('the audit log records every write', () => {
  let t: TestAdmin;
  let su: Client;
  let editor: Client;
  let seeded: SeededAdmin;

  beforeAll(async () => {
    ({ t, su, editor, seeded } = await startAudit());
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.sql('delete from cms_audit');
    await t.sql('delete from cms_throttle');
  });

  const rows = () => auditRows(t);
  const tableText = () => auditText(t);
  const createNote = (body: Record<string, unknown> = {}) => noteOf(editor, body);

  describe('record saves', () => {
    it('a create writes one row naming the sent fields; the password field is named, never valued', async () => {
      const res = await editor.post(NOTES, { title: 'first', rank: 2, pin: 'pin-secret-4711' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const found = await rows();
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({
        admin_id: editor.id,
        actor: 'editor',
        action: 'create',
        target: NOTES,
        record_id: res.body.data.id,
        request_id: expect.any(String),
        ip: expect.any(String),
      });
      expect([...found[0]!.fields].sort()).toEqual(['pin', 'rank', 'title']);
      expect(await tableText()).not.toContain('pin-secret-4711');
    });

    it('an update names only the fields whose value changed', async () => {
      const id = await createNote({ rank: 1, heading: { en: 'Hi', de: 'Hallo' } });
      await t.sql('delete from cms_audit');
      const res = await editor.put(`${NOTES}/${id}`, { title: 'a note', rank: 5, heading: { de: 'Hallo', en: 'Hi' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const found = await rows();
      expect(found.map((row) => [row.action, row.record_id, row.fields])).toEqual([['update', id, ['rank']]]);
    });

    it('an admin created or given a new password through the admins controller: named, never valued', async () => {
      const created = await su.post(ADMINS, { login: 'audited', email: 'audited@example.com', password: 'new admin password 1' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.data.id as number;
      const updated = await su.put(`${ADMINS}/${id}`, { password: 'new admin password 2', first_name: 'Aud' });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      const found = await rows();
      expect(found.map((row) => [row.action, row.target, row.record_id, [...row.fields].sort()])).toEqual([
        ['create', ADMINS, id, ['email', 'login', 'password']],
        ['update', ADMINS, id, ['first_name', 'password']],
      ]);
      const text = await tableText();
      expect(text).not.toContain('new admin password');
    });

    it('a save refused by a hook (422 or 403) or by the database after the flush leaves no row', async () => {
      const id = await createNote();
      await t.sql('delete from cms_audit');
      // 422 from the admins controller's beforeSave: the login is taken.
      const taken = await su.post(ADMINS, { login: 'editor', email: 'other@example.com', password: 'a fine password' });
      expect(taken.status).toBe(422);
      // 403 thrown by beforeSave, and by afterSave after the rows were flushed.
      expect((await editor.put(`${NOTES}/${id}`, { title: 'forbidden' })).status).toBe(403);
      expect((await editor.put(`${NOTES}/${id}`, { title: 'refused after save' })).status).toBe(403);
      // A check constraint only the database knows: 422 after the flush.
      expect((await editor.put(`${NOTES}/${id}`, { rank: 13 })).status).toBe(422);
      expect(await rows()).toEqual([]);
    });
  });

  describe('deletes and actions', () => {
    it('a delete and a bulk delete each leave their rows', async () => {
      const [one, two, three] = [await createNote(), await createNote(), await createNote()];
      await t.sql('delete from cms_audit');
      expect((await editor.delete(`${NOTES}/${one}`)).status).toBe(200);
      expect((await editor.post(`${NOTES}/bulk-delete`, { ids: [two, three] })).status).toBe(200);
      const found = await rows();
      expect(found.map((row) => [row.action, row.target, row.record_id, row.detail, row.fields])).toEqual([
        ['delete', NOTES, one, '', []],
        ['delete', NOTES, two, 'bulk-delete', []],
        ['delete', NOTES, three, 'bulk-delete', []],
      ]);
      // The rows of one request share its id.
      expect(found[1]!.request_id).toBe(found[2]!.request_id);
    });

    it('a bulk action leaves one row per record; a failing one leaves none', async () => {
      const ids: number[] = [];
      for (const title of ['x', 'y']) {
        const [row] = await t.sql<{ id: number }>('insert into test_action_items (title, owner_id) values (?, ?) returning id', [
          title,
          editor.id,
        ]);
        ids.push(Number(row!.id));
      }
      expect((await editor.post(`${ITEMS}/bulk/bump`, { ids })).status).toBe(200);
      expect((await editor.post(`${ITEMS}/bulk/fail`, { ids })).status).toBe(500);
      // A toolbar action without a transaction of its own still leaves its row.
      expect((await editor.post(`${ITEMS}/toolbar/outside`, {}).set(XHR)).status).toBe(200);
      const found = await rows();
      expect(found.map((row) => [row.action, row.target, row.record_id, row.detail])).toEqual([
        ['action', ITEMS, ids[0], 'bulk:bump'],
        ['action', ITEMS, ids[1], 'bulk:bump'],
        ['action', ITEMS, null, 'toolbar:outside'],
      ]);
    });
  });

  describe('writes that are no form save', () => {
    it("a plugin field type's upload leaves a file row naming the field; a refused one none", async () => {
      const created = await editor.post(LAB_ITEMS, { name: 'Item' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.data.id as number;
      await t.sql('delete from cms_audit');
      const upload = (content: string, name: string) =>
        t.http.post(`${API}/${LAB_ITEMS}/${id}/fields/stamp/upload`).set(bearer(editor.token)).attach('file', Buffer.from(content), name);
      expect((await upload('hello\n', 'stamp.txt')).status).toBe(200);
      // The handler writes, then answers what cannot be served: rolled back, its row with it.
      expect((await upload('function', 'stamp.txt')).status).toBe(500);
      expect((await upload('bad', 'stamp.txt')).status).toBe(422);
      const found = await rows();
      expect(found.map((row) => [row.action, row.target, row.record_id, row.detail, row.fields])).toEqual([
        ['file', LAB_ITEMS, id, 'upload', ['stamp']],
      ]);
    });

    it("a singleton's first open creates its record, and says so", async () => {
      await t.sql('delete from test_action_singles');
      const first = await editor.get(`${SINGLE}/singleton`);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect((await editor.get(`${SINGLE}/singleton`)).status).toBe(200);
      const found = await rows();
      expect(found.map((row) => [row.action, row.target, row.record_id, row.detail])).toEqual([
        ['create', SINGLE, first.body.data.id, 'singleton'],
      ]);
    });
  });

  describe('settings, account and tokens', () => {
    it('a settings save names the changed fields and the secret, never the secret value', async () => {
      const res = await editor.put('settings/shop', { title: 'My shop', api_key: 'sk-live-secret-value' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const again = await editor.put('settings/shop', { title: 'My shop', limit: 20 });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      const found = await rows();
      expect(found.map((row) => [row.action, row.target, [...row.fields].sort()])).toEqual([
        ['settings', 'shop', ['api_key', 'title']],
        ['settings', 'shop', ['limit']],
      ]);
      expect(await tableText()).not.toContain('sk-live-secret-value');
    });

    it('account, preferences and personal API tokens leave their rows', async () => {
      const cookie = await t.http.post(`${API}/auth/login`).set(XHR).send({ login: seeded.login, password: seeded.password });
      expect(cookie.status).toBe(200);
      const token = (await t.http
        .post(`${API}/auth/login`)
        .send({ login: seeded.login, password: seeded.password })
        .then((r) => r.body.data.access_token)) as string;
      await t.sql('delete from cms_audit');
      const as = (request: import('supertest').Test) => request.set(bearer(token));
      expect((await as(t.http.put(`${API}/account`)).send({ email: seeded.email, first_name: 'Sig' })).status).toBe(200);
      expect((await as(t.http.put(`${API}/account/preferences`)).send({ admin_locale: 'de' })).status).toBe(200);
      const created = await as(t.http.post(`${API}/account/tokens`)).send({ name: 'ci' });
      expect(created.status).toBe(201);
      expect((await as(t.http.delete(`${API}/account/tokens/${created.body.data.id}`))).status).toBe(200);
      const found = await rows();
      expect(found.map((row) => [row.action, row.admin_id, row.record_id, row.fields])).toEqual([
        ['account', seeded.id, seeded.id, ['first_name']],
        ['preferences', seeded.id, seeded.id, ['admin_locale']],
        ['token_create', seeded.id, created.body.data.id, []],
        ['token_revoke', seeded.id, created.body.data.id, []],
      ]);
      expect(await tableText()).not.toContain(created.body.data.token);
    });
  });

  describe('logins', () => {
    it('a login and a failed login each leave their row; the password never', async () => {
      expect((await t.http.post(`${API}/auth/login`).send({ login: 'SIGNER', password: seeded.password })).status).toBe(200);
      const failed = await t.http.post(`${API}/auth/login`).send({ email: ` ${seeded.email.toUpperCase()} `, password: 'wrong guess 123' });
      expect(failed.status).toBe(401);
      const unknown = await t.http.post(`${API}/auth/login`).send({ login: 'Nobody.Here', password: 'wrong guess 456' });
      expect(unknown.status).toBe(401);
      const found = await rows();
      expect(found.map((row) => [row.action, row.admin_id, row.actor, row.target])).toEqual([
        ['login', seeded.id, 'Signer', 'auth'],
        ['login_failed', seeded.id, seeded.email.toLowerCase(), 'auth'],
        ['login_failed', null, 'nobody.here', 'auth'],
      ]);
      expect(found.every((row) => row.ip !== null && row.request_id !== null)).toBe(true);
      expect(await tableText()).not.toMatch(/wrong guess|correct horse/);
    });

    it('attempts the throttle refuses (429) leave no row: the table grows no faster than the throttle allows', async () => {
      const attempt = () => t.http.post(`${API}/auth/login`).send({ login: 'target', password: 'wrong guess 789' });
      const statuses = [];
      for (let i = 0; i < 6; i += 1) statuses.push((await attempt()).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
      expect((await rows()).map((row) => row.action)).toEqual(['login_failed', 'login_failed', 'login_failed']);
    });
  });
});
