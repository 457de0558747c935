import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { ADMINS, expect422, ROLES, signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { prefsPlugin } from '../fixtures/settings.ts';

const MANAGE = 'cms.backend.manage_admins';
const TABLES = ['cms_admins', 'cms_roles'];

/** `cms/backend/admins` and `cms/backend/roles`: the core's own controllers and their guards. */
describe('the admins and roles controllers', () => {
  let t: TestAdmin;
  let su: Client;
  let manager: Client;

  beforeAll(async () => {
    // A plugin's permissions to grant and deny: the settings fixture's three.
    t = await startTestAdmin({ adapter: 'node', plugins: [prefsPlugin] });
    su = await signIn(t, { isSuperuser: true, login: 'root' });
    manager = await signIn(t, { login: 'manager', permissions: { [MANAGE]: 1, 'test.prefs.manage': 1 } });
  });
  afterAll(() => t.close());

  let counter = 0;
  const newAdmin = async (client: Client, body: Record<string, unknown> = {}) => {
    counter += 1;
    const res = await client.post(ADMINS, {
      login: `user${counter}`,
      email: `user${counter}@example.com`,
      password: 'a fine password',
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { data: Record<string, unknown> & { id: number }; meta: Record<string, any> };
  };

  it('creates an admin: the password is hashed, never returned, and works for login', async () => {
    const roleId = await t.createRole('editors', { 'test.prefs.manage': 1 }, 'Editors');
    const { data, meta } = await newAdmin(su, {
      login: 'ada',
      email: 'ada@example.com',
      first_name: 'Ada',
      role: roleId,
      permissions: { 'test.prefs.other': -1 },
    });
    expect(data).toEqual({
      id: expect.any(Number),
      login: 'ada',
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: '',
      role: roleId,
      permissions: { 'test.prefs.other': -1 },
      is_superuser: false,
    });
    expect(meta.labels).toEqual({ role: [{ label: 'Editors', value: roleId }] });
    const shown = await su.get(`${ADMINS}/${data.id}`);
    expect(shown.body.data).toEqual(data);
    const list = await su.get(ADMINS, { search: 'ada@' });
    expect(list.body.data).toEqual([
      { id: data.id, login: 'ada', email: 'ada@example.com', first_name: 'Ada', last_name: '', role: 'Editors', is_superuser: false },
    ]);
    for (const body of [JSON.stringify(shown.body), JSON.stringify(list.body)]) {
      expect(body).not.toContain('a fine password');
      expect(body).not.toContain('password_hash');
      expect(body).not.toContain('"password"');
    }
    expect(await t.login('ada', 'a fine password')).toEqual(expect.any(String));
  });

  it('a password is required on create, optional on update (empty keeps it), and at least 8 characters', async () => {
    expect422(await su.post(ADMINS, { login: 'nopass', email: 'nopass@example.com' }), ['password']);
    expect422(await su.post(ADMINS, { login: 'short', email: 'short@example.com', password: 'abc' }), ['password']);
    const { data } = await newAdmin(su, { login: 'keeper', password: 'first password' });
    expect((await su.put(`${ADMINS}/${data.id}`, { password: '', first_name: 'K' })).status).toBe(200);
    await t.login('keeper', 'first password');
    const changed = await su.put(`${ADMINS}/${data.id}`, { password: 'second password' });
    expect(changed.status).toBe(200);
    expect(JSON.stringify(changed.body)).not.toContain('second password');
    await t.login('keeper', 'second password');
  });

  it('a non-superuser manager cannot make or unmake superusers (403), and nothing changes', async () => {
    const before = await snapshot(t, TABLES);
    const created = await manager.post(ADMINS, {
      login: 'sneaky',
      email: 'sneaky@example.com',
      password: 'a fine password',
      is_superuser: true,
    });
    expect(created.status).toBe(403);
    expect(created.body.error.details).toEqual({ is_superuser: [expect.any(String)] });
    const { data } = await newAdmin(manager, { is_superuser: false });
    const after = await snapshot(t, TABLES);
    const promoted = await manager.put(`${ADMINS}/${data.id}`, { is_superuser: true, first_name: 'Promoted' });
    expect(promoted.status).toBe(403);
    expect(await snapshot(t, TABLES)).toEqual(after);
    expect((await manager.put(`${ADMINS}/${manager.id}`, { is_superuser: true })).status).toBe(403);
    // Sending the stored value back unchanged is fine (the form sends every field).
    expect((await manager.put(`${ADMINS}/${data.id}`, { is_superuser: false, first_name: 'Same' })).status).toBe(200);
    // A superuser may.
    expect((await su.put(`${ADMINS}/${data.id}`, { is_superuser: true })).body.data.is_superuser).toBe(true);
    expect(before.cms_admins!.length + 1).toBe(after.cms_admins!.length);
  });

  it('a non-superuser manager neither sees nor edits superusers', async () => {
    const { data } = await newAdmin(su, { login: 'boss', is_superuser: true });
    const list = await manager.get(ADMINS, { per_page: '100' });
    expect(list.body.data.every((row: { is_superuser: boolean }) => row.is_superuser === false)).toBe(true);
    expect(list.body.data.map((row: { login: string }) => row.login)).toContain('manager');
    const before = await snapshot(t, TABLES);
    expect((await manager.get(`${ADMINS}/${data.id}`)).status).toBe(404);
    expect((await manager.put(`${ADMINS}/${data.id}`, { password: 'taken over!' })).status).toBe(404);
    expect((await manager.delete(`${ADMINS}/${data.id}`)).status).toBe(404);
    expect((await manager.post(`${ADMINS}/bulk-delete`, { ids: [data.id, manager.id] })).status).toBe(409);
    expect(await snapshot(t, TABLES)).toEqual(before);
  });

  it('a manager cannot give a role that grants permissions they do not hold (403 before any write)', async () => {
    const strong = await t.createRole('strong', { 'test.prefs.reports': 1 });
    const weak = await t.createRole('weak', { 'test.prefs.manage': 1 });
    const { data } = await newAdmin(manager, { role: weak });
    const before = await snapshot(t, TABLES);
    const res = await manager.put(`${ADMINS}/${data.id}`, { role: strong });
    expect(res.status).toBe(403);
    expect(Object.keys(res.body.error.details)).toEqual(['role']);
    expect((await manager.put(`${ADMINS}/${manager.id}`, { role: strong })).status).toBe(403);
    expect(
      (await manager.post(ADMINS, { login: 'rolled', email: 'rolled@example.com', password: 'a fine password', role: strong })).status,
    ).toBe(403);
    expect(await snapshot(t, TABLES)).toEqual(before);
    const options = await manager.get(`${ADMINS}/fields/role/options`);
    const locked = Object.fromEntries(options.body.data.map((o: { value: number; locked: boolean }) => [o.value, o.locked]));
    expect(locked).toMatchObject({ [strong]: true, [weak]: false });
    expect((await su.put(`${ADMINS}/${data.id}`, { role: strong })).status).toBe(200);
    // Nor take it away again.
    expect((await manager.put(`${ADMINS}/${data.id}`, { role: null })).status).toBe(403);
  });

  it('permission editor (radio): 422 for a non-object, unknown code or value; 403 for a locked code; kept codes survive', async () => {
    const { data } = await newAdmin(su, { permissions: { 'test.prefs.manage': 1 } });
    await t.sql(`update cms_admins set permissions = ? where id = ?`, [
      // A kept deny: a kept grant would be held by the target and not by the manager (docs/security.md).
      JSON.stringify({ 'test.prefs.manage': 1, 'retired.plugin.code': -1 }),
      data.id,
    ]);
    const before = await snapshot(t, TABLES);
    expect422(await su.put(`${ADMINS}/${data.id}`, { permissions: ['test.prefs.manage'] }), ['permissions']);
    expect422(await su.put(`${ADMINS}/${data.id}`, { permissions: 'all' }), ['permissions']);
    expect422(await su.put(`${ADMINS}/${data.id}`, { permissions: { 'no.such.code': 1 } }), ['permissions']);
    expect422(await su.put(`${ADMINS}/${data.id}`, { permissions: { 'test.prefs.manage': 2 } }), ['permissions']);
    expect422(await su.put(`${ADMINS}/${data.id}`, { permissions: { 'test.prefs.manage': '1' } }), ['permissions']);
    expect422(await su.put(`${ADMINS}/${data.id}`, { permissions: { 'test.prefs.manage': 0 } }), ['permissions']);
    const locked = await manager.put(`${ADMINS}/${data.id}`, {
      permissions: { 'test.prefs.manage': 1, 'test.prefs.reports': 1 },
    });
    expect(locked.status).toBe(403);
    expect(Object.keys(locked.body.error.details)).toEqual(['permissions']);
    expect(await snapshot(t, TABLES)).toEqual(before);
    // A code the manager holds may change; the stored code that is no longer offered is kept.
    const ok = await manager.put(`${ADMINS}/${data.id}`, { permissions: { 'test.prefs.manage': -1 } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.permissions).toEqual({ 'test.prefs.manage': -1, 'retired.plugin.code': -1 });
    // Sent back as served, the kept code is accepted unchanged.
    expect((await su.put(`${ADMINS}/${data.id}`, { permissions: ok.body.data.permissions })).body.data.permissions).toEqual(
      ok.body.data.permissions,
    );
  });

  it('roles (checkbox): value 1 only; -1 is 422', async () => {
    const created = await su.post(ROLES, { code: 'auditors', name: 'Auditors', permissions: { 'test.prefs.manage': 1 } });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(Number),
      code: 'auditors',
      name: 'Auditors',
      description: null,
      permissions: { 'test.prefs.manage': 1 },
    });
    expect422(await su.put(`${ROLES}/${created.body.data.id}`, { permissions: { 'test.prefs.manage': -1 } }), ['permissions']);
    expect(
      (
        await manager.put(`${ROLES}/${created.body.data.id}`, {
          permissions: { 'test.prefs.manage': 1, 'test.prefs.other': 1 },
        })
      ).status,
    ).toBe(403);
  });

  it('an admin cannot delete itself (403), by delete or bulk-delete', async () => {
    const before = await snapshot(t, TABLES);
    const res = await manager.delete(`${ADMINS}/${manager.id}`);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/own account/);
    expect((await manager.post(`${ADMINS}/bulk-delete`, { ids: [manager.id] })).status).toBe(403);
    expect((await su.delete(`${ADMINS}/${su.id}`)).status).toBe(403);
    expect(await snapshot(t, TABLES)).toEqual(before);
  });

  it('soft-deleted admins vanish from list and show, and keep their login and email reserved', async () => {
    const { data } = await newAdmin(manager, { login: 'leaving', email: 'leaving@example.com' });
    expect((await manager.delete(`${ADMINS}/${data.id}`)).body.data).toEqual({ deleted: 1 });
    const rows = await t.sql<{ deleted_at: Date | null }>('select deleted_at from cms_admins where id = ?', [data.id]);
    expect(rows[0]!.deleted_at).not.toBeNull();
    expect((await su.get(`${ADMINS}/${data.id}`)).status).toBe(404);
    expect((await su.put(`${ADMINS}/${data.id}`, { first_name: 'Back' })).status).toBe(404);
    expect((await su.get(ADMINS, { search: 'leaving' })).body.meta.total).toBe(0);
    expect422(await su.post(ADMINS, { login: 'leaving', email: 'new@example.com', password: 'a fine password' }), ['login']);
    expect422(await su.post(ADMINS, { login: 'newcomer', email: 'LEAVING@example.com', password: 'a fine password' }), ['email']);
    // A login may not be another admin's email either (both sign in).
    expect422(await su.post(ADMINS, { login: 'leaving@example.com', email: 'x@example.com', password: 'a fine password' }), ['login']);
    const other = await newAdmin(su);
    expect422(await su.put(`${ADMINS}/${other.data.id}`, { login: 'LEAVING' }), ['login']);
    // Bulk delete soft-deletes too.
    const a = await newAdmin(su);
    const b = await newAdmin(su);
    expect((await su.post(`${ADMINS}/bulk-delete`, { ids: [a.data.id, b.data.id] })).body.data).toEqual({ deleted: 2 });
    expect((await t.sql('select id from cms_admins where id in (?, ?) and deleted_at is not null', [a.data.id, b.data.id])).length).toBe(2);
  });

  it('a suspended admin is marked disabled in the list, though suspended_at is no column', async () => {
    const { data } = await newAdmin(su, { login: 'sleeper', email: 'sleeper@example.com' });
    await t.sql('update cms_admins set suspended_at = now() where id = ?', [data.id]);
    const awake = await newAdmin(su, { login: 'sleeperawake', email: 'awake@example.com' });
    const list = await su.get(ADMINS, { search: 'sleeper' });
    expect(list.body.data.map((row: { id: number }) => row.id).sort()).toEqual([data.id, awake.data.id].sort());
    expect(list.body.meta.row_states).toEqual({ [data.id]: ['disabled'] });
    for (const row of list.body.data) expect(row).not.toHaveProperty('suspended_at');
  });

  it('required and typed fields: login, email', async () => {
    for (const email of ['not-an-email', 'a@', '@b.c', 'a b@c.de'])
      expect422(await su.post(ADMINS, { login: `e-${email.length}`, email, password: 'a fine password' }), ['email']);
    expect422(await su.post(ADMINS, { password: 'a fine password' }), ['email', 'login']);
    expect422(await su.post(ADMINS, { login: 'x1', email: 'x1@example.com', password: 'a fine password', is_superuser: 'yes' }), [
      'is_superuser',
    ]);
    expect422(await su.post(ADMINS, { login: 'x2', email: 'x2@example.com', password: 'a fine password', role: 999999 }), ['role']);
  });
});
