import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { expectError } from '../../../../test/support/auth.ts';
import { ADMINS, clientFor, ROLES, signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { prefsPlugin } from '../fixtures/settings.ts';

const MANAGE = 'cms.backend.manage_admins';
const PREFS = 'test.prefs.manage';
/** The permission the manager lacks. */
const REPORTS = 'test.prefs.reports';
const TABLES = ['cms_admins', 'cms_roles'];

/** Privileges between admins (docs/security.md, "Privileges between admins"). */
describe('privileges between admins', () => {
  let t: TestAdmin;
  let su: Client;
  let manager: Client;

  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node', plugins: [prefsPlugin] });
    su = await signIn(t, { isSuperuser: true });
    manager = await signIn(t, { permissions: { [MANAGE]: 1, [PREFS]: 1 } });
  });
  afterAll(() => t.close());

  /** Runs `work`, then asserts that no admin and no role changed. */
  const writesNothing = async (work: () => Promise<void>) => {
    const before = await snapshot(t, TABLES);
    await work();
    expect(await snapshot(t, TABLES)).toEqual(before);
  };

  /** A personal API token of `client`'s admin, as a client. */
  const tokenOf = async (client: Client) => {
    const res = await client.post('account/tokens', { name: 'script' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return clientFor(t, client.id, res.body.data.token as string);
  };

  describe('taking over another admin', () => {
    it('a manager cannot set the password, email, login or names of an admin who holds a permission the manager lacks', async () => {
      const byGrant = await t.createAdmin({ permissions: { [REPORTS]: 1 } });
      const byRole = await t.createAdmin({ roleId: await t.createRole('reporters', { [REPORTS]: 1 }) });
      await writesNothing(async () => {
        for (const target of [byGrant, byRole]) {
          for (const body of [{ password: 'taken over!' }, { email: 'mine@example.com' }, { login: 'mine' }, { first_name: 'Renamed' }]) {
            expectError(await manager.put(`${ADMINS}/${target.id}`, body), 403, 'forbidden');
          }
        }
      });
      expect(await t.login(byGrant.login, byGrant.password)).toEqual(expect.any(String));
    });

    it('a manager cannot delete such an admin, alone or in a bulk delete with admins they may touch', async () => {
      const target = await t.createAdmin({ permissions: { [REPORTS]: 1 } });
      const plain = await t.createAdmin();
      await writesNothing(async () => {
        expectError(await manager.delete(`${ADMINS}/${target.id}`), 403, 'forbidden');
        expectError(await manager.post(`${ADMINS}/bulk-delete`, { ids: [plain.id, target.id] }), 403, 'forbidden');
      });
      expect((await manager.delete(`${ADMINS}/${plain.id}`)).body.data).toEqual({ deleted: 1 });
    });

    it('a manager may reset an admin who holds only what the manager holds; a per-admin deny is not held', async () => {
      const within = await t.createAdmin({ permissions: { [PREFS]: 1 } });
      const denied = await t.createAdmin({
        roleId: await t.createRole('denied-reporters', { [REPORTS]: 1 }),
        permissions: { [REPORTS]: -1 },
      });
      for (const target of [within, denied]) {
        const res = await manager.put(`${ADMINS}/${target.id}`, { password: 'a new password', first_name: 'Reset' });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(await t.login(target.login, 'a new password')).toEqual(expect.any(String));
      }
    });

    it('a grant of a code no plugin declares any more still counts as held', async () => {
      const target = await t.createAdmin();
      // The admins form refuses a code no plugin declares: the grant is left over in the row.
      await t.sql(`update cms_admins set permissions = '{"retired.plugin.code":1}' where id = ?`, [target.id]);
      await writesNothing(async () => {
        expectError(await manager.put(`${ADMINS}/${target.id}`, { password: 'taken over!' }), 403, 'forbidden');
      });
    });

    it('the admins a manager may not touch are still listed and shown', async () => {
      const target = await t.createAdmin({ login: 'untouchable', permissions: { [REPORTS]: 1 } });
      const list = await manager.get(ADMINS, { search: 'untouchable' });
      expect(list.body.data.map((row: { id: number }) => row.id)).toEqual([target.id]);
      const shown = await manager.get(`${ADMINS}/${target.id}`);
      expect(shown.status).toBe(200);
      expect(shown.body.data.permissions).toEqual({ [REPORTS]: 1 });
    });

    it('a superuser may reset and delete any admin', async () => {
      const target = await t.createAdmin({ permissions: { [REPORTS]: 1 } });
      expect((await su.put(`${ADMINS}/${target.id}`, { password: 'reset by root' })).status).toBe(200);
      expect(await t.login(target.login, 'reset by root')).toEqual(expect.any(String));
      expect((await su.delete(`${ADMINS}/${target.id}`)).body.data).toEqual({ deleted: 1 });
    });
  });

  describe('roles', () => {
    it('a manager cannot change or delete a role that grants a permission they lack (403, nothing written)', async () => {
      const strong = await t.createRole('strong-role', { [REPORTS]: 1, [PREFS]: 1 });
      const plain = await t.createRole('plain-role', { [PREFS]: 1 });
      await writesNothing(async () => {
        expectError(await manager.put(`${ROLES}/${strong}`, { name: 'Renamed' }), 403, 'forbidden');
        expectError(await manager.put(`${ROLES}/${strong}`, { description: 'mine now' }), 403, 'forbidden');
        expectError(await manager.delete(`${ROLES}/${strong}`), 403, 'forbidden');
        expectError(await manager.post(`${ROLES}/bulk-delete`, { ids: [plain, strong] }), 403, 'forbidden');
      });
      expect((await su.put(`${ROLES}/${strong}`, { name: 'Renamed by root' })).status).toBe(200);
    });

    it('a manager changes and deletes a role whose permissions they all hold', async () => {
      const plain = await t.createRole('held-role', { [PREFS]: 1 });
      expect((await manager.put(`${ROLES}/${plain}`, { name: 'Held', permissions: {} })).body.data.permissions).toEqual({});
      expect((await manager.delete(`${ROLES}/${plain}`)).body.data).toEqual({ deleted: 1 });
    });

    it('a manager assigns, on create and on update, only roles whose permissions they all hold', async () => {
      const strong = await t.createRole('assign-strong', { [REPORTS]: 1 });
      const plain = await t.createRole('assign-plain', { [PREFS]: 1 });
      const target = await t.createAdmin();
      await writesNothing(async () => {
        const body = { login: 'assigned', email: 'assigned@example.com', password: 'a fine password', role: strong };
        expectError(await manager.post(ADMINS, body), 403, 'forbidden');
        expectError(await manager.put(`${ADMINS}/${target.id}`, { role: strong }), 403, 'forbidden');
      });
      expect((await manager.put(`${ADMINS}/${target.id}`, { role: plain })).body.data.role).toBe(plain);
    });
  });

  describe('personal API tokens', () => {
    let root: Client;
    let script: Client;
    beforeAll(async () => {
      // A superuser's token, the worst case: it may do everything else.
      root = await signIn(t, { isSuperuser: true });
      script = await tokenOf(root);
    });

    it('cannot change the credentials or privileges of any admin, its own included (403 interactive_only)', async () => {
      const target = await t.createAdmin();
      const role = await t.createRole('token-role', { [PREFS]: 1 });
      const changes: Array<[number, Record<string, unknown>]> = [
        [target.id, { password: 'taken over!' }],
        [target.id, { email: 'script@example.com' }],
        [target.id, { login: 'script' }],
        [target.id, { is_superuser: true }],
        [target.id, { role }],
        [target.id, { permissions: { [PREFS]: 1 } }],
        [root.id, { password: 'my own, no current password' }],
        [root.id, { permissions: { [REPORTS]: -1 } }],
      ];
      await writesNothing(async () => {
        for (const [id, body] of changes) {
          const res = await script.put(`${ADMINS}/${id}`, { first_name: 'Script', ...body });
          expectError(res, 403, 'interactive_only');
          expect(Object.keys(res.body.error.details)).toEqual(Object.keys(body));
        }
      });
    });

    it('cannot create or delete admins (403 interactive_only)', async () => {
      const target = await t.createAdmin();
      await writesNothing(async () => {
        const body = { login: 'made-by-script', email: 'made-by-script@example.com', password: 'a fine password', is_superuser: true };
        expectError(await script.post(ADMINS, body), 403, 'interactive_only');
        expectError(await script.delete(`${ADMINS}/${target.id}`), 403, 'interactive_only');
        expectError(await script.post(`${ADMINS}/bulk-delete`, { ids: [target.id] }), 403, 'interactive_only');
      });
      expect((await t.sql('select id from cms_admins where login = ?', ['made-by-script'])).length).toBe(0);
    });

    it('may change names, and send the stored credentials and privileges back unchanged', async () => {
      const role = await t.createRole('kept-role', { [PREFS]: 1 });
      const target = await t.createAdmin({ roleId: role, permissions: { [REPORTS]: -1 } });
      const shown = (await script.get(`${ADMINS}/${target.id}`)).body.data;
      const res = await script.put(`${ADMINS}/${target.id}`, { ...shown, id: undefined, first_name: 'Named', password: '' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toEqual({ ...shown, first_name: 'Named' });
    });

    it('cannot create or delete a role, nor change what it grants; its name may change', async () => {
      const role = await t.createRole('script-role', { [PREFS]: 1 });
      await writesNothing(async () => {
        expectError(await script.post(ROLES, { code: 'scripted', name: 'Scripted' }), 403, 'interactive_only');
        expectError(await script.put(`${ROLES}/${role}`, { permissions: { [PREFS]: 1, [REPORTS]: 1 } }), 403, 'interactive_only');
        expectError(await script.put(`${ROLES}/${role}`, { permissions: {} }), 403, 'interactive_only');
        expectError(await script.delete(`${ROLES}/${role}`), 403, 'interactive_only');
        expectError(await script.post(`${ROLES}/bulk-delete`, { ids: [role] }), 403, 'interactive_only');
      });
      const renamed = await script.put(`${ROLES}/${role}`, { name: 'Renamed by script', permissions: { [PREFS]: 1 } });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    });
  });

  describe('one’s own password', () => {
    it('is refused through the admins controller with a pointer to PUT /account, even for a superuser', async () => {
      const self = await signIn(t, { permissions: { [MANAGE]: 1 } });
      const root = await signIn(t, { isSuperuser: true });
      await writesNothing(async () => {
        for (const client of [self, root]) {
          const res = await client.put(`${ADMINS}/${client.id}`, { password: 'changed without the current one' });
          expectError(res, 403, 'forbidden');
          expect(Object.keys(res.body.error.details)).toEqual(['password']);
          expect(res.body.error.details.password[0]).toContain('/account');
        }
      });
      // Their sessions still work, and other fields of their own record may change.
      expect((await self.put(`${ADMINS}/${self.id}`, { first_name: 'Self' })).status).toBe(200);
      expect((await root.put(`${ADMINS}/${root.id}`, { first_name: 'Root', password: '' })).status).toBe(200);
    });
  });
});
