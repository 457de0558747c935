import { afterEach, describe, expect, it } from 'vitest';
import { assertConfigError, type Refusal } from '../support/config-error.ts';
import { createAdmin, type KoaAdmin } from '@cms/admin-koa';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/database.ts';
import { API, startTestAdmin, TEST_SECRET, type TestAdmin } from '../../../../test/support/app.ts';
import { silentLogger } from '../../../../test/support/logger.ts';

/*
 * Issue 23, point 3: the first superuser without SQL. `bootstrap.superuser` creates it at start-up
 * only while `cms_admins` has no row, and two instances starting at once create one
 * (docs/host-guide.md, "The first superuser").
 */
const SUPERUSER = { login: 'root', email: 'root@example.com', password: 'a long enough password' };

const admins = (t: TestAdmin) =>
  t.sql<{ login: string; is_superuser: boolean; deleted_at: Date | null }>(
    'select login, is_superuser, deleted_at from cms_admins order by id',
  );

describe('bootstrap.superuser', () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });
  /** A fresh database of this test, disposed after it (after the admins on it are closed). */
  const fresh = async () => {
    const db = await createTestDatabase();
    open.push({ close: () => db.dispose() });
    return db;
  };

  it('creates the superuser on an empty database, who can sign in; the audit log says so', async () => {
    const t = await startTestAdmin({ bootstrap: { superuser: SUPERUSER } });
    open.push(t);
    expect(t.core.bootstrapped).toMatchObject({ created: true, login: 'root' });
    expect(await admins(t)).toEqual([{ login: 'root', is_superuser: true, deleted_at: null }]);
    const login = await t.http.post(`${API}/auth/login`).send({ login: 'root', password: SUPERUSER.password });
    expect(login.status).toBe(200);
    // Written through the local API as the system actor named `bootstrap` (docs/audit.md).
    const audit = await t.sql("select actor, action, target, detail, admin_id, request_id, ip from cms_audit where action = 'create'");
    expect(audit).toEqual([
      {
        actor: 'bootstrap',
        action: 'create',
        target: 'cms/backend/admins',
        detail: '',
        admin_id: null,
        request_id: expect.stringMatching(/^local-/),
        ip: 'local',
      },
    ]);
    // The password is stored hashed only.
    const [row] = await t.sql<{ password_hash: string }>('select password_hash from cms_admins');
    expect(row!.password_hash).toMatch(/^scrypt\$/);
  });

  it('creates nothing when an admin exists, even a soft-deleted one', async () => {
    const db = await fresh();
    const first = await startOn(db, undefined);
    await first.core
      .em()
      .execute(`insert into cms_admins (login, email, password_hash, deleted_at) values ('someone', 'someone@example.com', 'x', now())`);
    await first.close();
    const second = await startOn(db, { superuser: SUPERUSER });
    open.push(second);
    expect(second.core.bootstrapped).toEqual({ created: false, reason: 'admins_exist' });
    expect(await logins(second)).toEqual(['someone']);
  });

  it('is used once: the next start with the option (or another login) creates no second superuser', async () => {
    const db = await fresh();
    const first = await startOn(db, { superuser: SUPERUSER });
    expect(first.core.bootstrapped).toMatchObject({ created: true });
    await first.close();
    const again = await startOn(db, { superuser: { ...SUPERUSER, login: 'other', email: 'other@example.com' } });
    open.push(again);
    expect(again.core.bootstrapped).toEqual({ created: false, reason: 'admins_exist' });
    expect(await logins(again)).toEqual(['root']);
  });

  it('refuses a malformed option before opening anything, naming the key', async () => {
    const cases: Array<[unknown, Refusal]> = [
      [{ superuser: { ...SUPERUSER, role: 'x' } }, { code: 'bootstrap_superuser_invalid', key: 'bootstrap.superuser.role' }],
      [{ superuser: 'root' }, { code: 'bootstrap_superuser_invalid', key: 'bootstrap.superuser' }],
      [{ admin: SUPERUSER }, { code: 'config_key_unknown', key: 'bootstrap.admin' }],
      ['yes', { code: 'config_value_invalid', key: 'bootstrap' }],
    ];
    for (const [bootstrap, { code, key }] of cases) {
      const error = await refusal(
        createAdmin({ secret: TEST_SECRET, database: { url: 'postgres://nobody@127.0.0.1:1/none' }, bootstrap: bootstrap as never }),
      );
      assertConfigError(error, code, { key });
    }
  });

  it('checks the values only when it would create the superuser: refused on an empty database, ignored once admins exist', async () => {
    const weak: Array<[Bootstrap, string]> = [
      [{ superuser: { ...SUPERUSER, password: 'short1' } }, 'bootstrap.superuser.password'],
      [{ superuser: { ...SUPERUSER, email: 'not-an-email' } }, 'bootstrap.superuser.email'],
      [{ superuser: { ...SUPERUSER, login: ' ' } }, 'bootstrap.superuser.login'],
    ];
    const db = await fresh();
    for (const [bootstrap, key] of weak) {
      const error = assertConfigError(await refusal(startOn(db, bootstrap)), 'bootstrap_superuser_invalid', { key });
      // The message never quotes the password.
      expect(error.message).not.toContain('short1');
    }
    // The refused starts created nothing and closed the database; an admin is then created.
    const first = await startOn(db, { superuser: SUPERUSER });
    expect(first.core.bootstrapped).toMatchObject({ created: true, login: 'root' });
    await first.close();
    // A weak bootstrap left in the configuration no longer stops the start.
    for (const [bootstrap] of weak) {
      const again = await startOn(db, bootstrap);
      expect(again.core.bootstrapped).toEqual({ created: false, reason: 'admins_exist' });
      await again.close();
    }
  }, 60_000);

  it('creates one superuser when two instances start at once on one server database', async (context) => {
    const db = await fresh();
    if (db.kind !== 'server') {
      context.skip('needs the PostgreSQL server (DATABASE_URL): the embedded database serves one process');
    }
    for (let round = 0; round < 3; round++) {
      await truncateAdmins(db);
      const started = await Promise.all(
        ['first', 'second'].map((name) =>
          startOn(
            db,
            { superuser: { login: `${name}${round}`, email: `${name}${round}@example.com`, password: SUPERUSER.password } },
            false,
          ),
        ),
      );
      for (const admin of started) open.push(admin);
      const outcomes = started.map((admin) => admin.core.bootstrapped?.created).sort();
      expect(outcomes).toEqual([false, true]);
      expect(await logins(started[0]!)).toHaveLength(1);
    }
  });
});

type Bootstrap = Parameters<typeof createAdmin>[0]['bootstrap'];

/** An admin on the database of a test, with `bootstrap` (no migrations when `migrate` is false). */
function startOn(db: TestDatabase, bootstrap: Bootstrap, migrate = true): Promise<KoaAdmin> {
  return createAdmin({ secret: TEST_SECRET, database: { ...db.config, migrate }, bootstrap, logger: silentLogger });
}

async function logins(admin: KoaAdmin): Promise<string[]> {
  const rows = await admin.core.em().execute<Array<{ login: string }>>('select login from cms_admins order by id');
  return rows.map((row) => row.login);
}

async function truncateAdmins(db: TestDatabase): Promise<void> {
  const admin = await createAdmin({ secret: TEST_SECRET, database: { ...db.config, migrate: false }, logger: silentLogger });
  await admin.core.em().execute('truncate cms_admins cascade');
  await admin.close();
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
