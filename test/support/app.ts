import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import supertest from 'supertest';
import type { AdminConfig, PermissionMap } from '@cms/admin-core';
import type { AdminCore } from '@cms/admin-core/adapter';
import { nodeListener } from '@cms/admin-core/node';
import { createAdmin, type KoaAdmin } from '@cms/admin-koa';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { silentLogger } from './logger.ts';

export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123';
export const API = '/backend/api/v1';

export interface SeededAdmin {
  id: number;
  login: string;
  email: string;
  password: string;
}

export interface TestAdmin {
  admin: KoaAdmin;
  core: AdminCore;
  db: TestDatabase;
  /** supertest against the host app's callback (or the node:http server, `adapter: 'node'`). */
  http: ReturnType<typeof supertest>;
  /** Every SQL statement run since the start (clear it with `queries.length = 0`). */
  queries: string[];
  storageRoot: string;
  /** Runs SQL on the admin's own pool (outside any request). */
  sql<T = Record<string, unknown>>(query: string, params?: unknown[]): Promise<T[]>;
  createAdmin(
    options?: Partial<Omit<SeededAdmin, 'id'>> & {
      isSuperuser?: boolean;
      permissions?: PermissionMap;
      roleId?: number | null;
      firstName?: string;
      lastName?: string;
    },
  ): Promise<SeededAdmin>;
  createRole(code: string, permissions: PermissionMap, name?: string): Promise<number>;
  /** Logs in over the Bearer transport and answers the access token. */
  login(login: string, password: string): Promise<string>;
  close(): Promise<void>;
}

let counter = 0;

export interface TestAdminOptions extends Partial<AdminConfig> {
  /**
   * `koa` (default): a host Koa app with the admin mounted, as the example app mounts it. `node`:
   * the same admin served by the plain `node:http` adapter (`@cms/admin-core/node`).
   */
  adapter?: 'koa' | 'node';
}

/**
 * The admin on a fresh database, served through one of the adapters. No plugin but the core's unless
 * `plugins` says so (the example app's tests mount its plugins with `startBlogAdmin`).
 */
export async function startTestAdmin({ adapter = 'koa', ...overrides }: TestAdminOptions = {}): Promise<TestAdmin> {
  const db = await createTestDatabase();
  const storageRoot = await mkdtemp(join(tmpdir(), 'cms-storage-'));
  const queries: string[] = [];
  let admin: KoaAdmin;
  try {
    admin = await createAdmin(
      {
        secret: TEST_SECRET,
        database: db.config,
        backend: { cookie_secure: true },
        locales: ['en', 'de'],
        fallbackLocale: 'en',
        plugins: [],
        storage: { root: storageRoot },
        logger: silentLogger,
        ...overrides,
      },
      { onQuery: (sql) => queries.push(sql) },
    );
  } catch (error) {
    await db.dispose();
    await rm(storageRoot, { recursive: true, force: true });
    throw error;
  }
  const app = new Koa();
  app.use(admin.middleware);
  const http = supertest(adapter === 'node' ? createServer(nodeListener(admin.core)) : app.callback());
  const core = admin.core;
  const sql = <T>(query: string, params: unknown[] = []) => core.db.orm.em.fork().execute(query, params) as Promise<T[]>;

  const harness: TestAdmin = {
    admin,
    core,
    db,
    http,
    queries,
    storageRoot,
    sql,
    async createAdmin(options = {}) {
      counter += 1;
      const login = options.login ?? `admin${counter}_${Date.now().toString(36)}`;
      const email = options.email ?? `${login}@example.com`;
      const password = options.password ?? 'correct horse battery';
      // Through the admins form, as the system actor `test` (docs/local-api.md, "Who uses it").
      const created = await core.local.create(
        'cms/backend/admins',
        {
          data: {
            login,
            email,
            first_name: options.firstName ?? '',
            last_name: options.lastName ?? '',
            password,
            is_superuser: options.isSuperuser ?? false,
            permissions: options.permissions ?? {},
            ...(options.roleId !== undefined ? { role: options.roleId } : {}),
          },
        },
        { as: 'system', actor: 'test' },
      );
      const rows = [{ id: created.data.id as number }];
      return { id: Number(rows[0]!.id), login, email, password };
    },
    async createRole(code, permissions, name = code) {
      const created = await core.local.create('cms/backend/roles', { data: { code, name, permissions } }, { as: 'system', actor: 'test' });
      return Number(created.data.id);
    },
    async login(login, password) {
      const response = await http.post(`${API}/auth/login`).send({ login, password });
      if (response.status !== 200) throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body.data.access_token as string;
    },
    async close() {
      await admin.close();
      await db.dispose();
      await rm(storageRoot, { recursive: true, force: true });
    },
  };
  return harness;
}

/**
 * Another admin on the same PostgreSQL server database as `t` (no migrations of its own), mounted
 * in its own Koa app as a host would: the second instance of the multi-instance tests. The
 * embedded PGlite serves one process through one connection, so only `t.db.kind === 'server'`.
 */
export async function startSecondInstance(
  t: TestAdmin,
  overrides: Partial<AdminConfig> = {},
): Promise<{ admin: KoaAdmin; http: ReturnType<typeof supertest> }> {
  const { config } = t.core;
  const admin = await createAdmin({
    secret: TEST_SECRET,
    database: { ...t.db.config, migrate: false },
    backend: { uri: config.prefix, cookie_secure: config.cookieSecure },
    locales: config.locales,
    fallbackLocale: config.fallbackLocale,
    plugins: config.plugins,
    storage: { root: t.storageRoot },
    logger: silentLogger,
    ...overrides,
  });
  const app = new Koa();
  app.use(admin.middleware);
  return { admin, http: supertest(app.callback()) };
}
