import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { DatabaseConfig } from '@cms/admin-core';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { POSTS, seedPosts, startBlogAdmin } from '../support/blog.ts';
import { signIn } from '../../../../test/support/client.ts';
import { indexesOf } from '../support/schema.ts';

/**
 * Without `pg_trgm` (docs/performance.md, "Lists at scale"): a role that may not create the
 * extension (server), or a PGlite opened without it (embedded). Every migration still runs, the
 * trigram indexes are missing, the sort indexes are there, search works unindexed, and the admin
 * logs one warning at start-up.
 */
describe('migrations where pg_trgm cannot be created', () => {
  const provided = inject('database');
  let t: TestAdmin;
  const warnings: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  let cleanup: () => Promise<void> = async () => {};

  /** A fresh, empty database the admin migrates from the start, without the extension. */
  async function bareDatabase(): Promise<DatabaseConfig> {
    if (provided.kind === 'embedded') {
      const pglite = await PGlite.create();
      cleanup = () => pglite.close();
      return { embedded: { pglite } };
    }
    // The role owns nothing but the schema it writes to: no CREATE on the database, which a
    // trusted extension such as pg_trgm needs.
    const suffix = `${provided.runId}_${randomBytes(4).toString('hex')}`;
    const name = `cms_noext_${suffix}`;
    const role = `cms_noext_role_${suffix}`;
    const admin = new pg.Client({ connectionString: provided.url });
    await admin.connect();
    await admin.query(`create role ${role} login`);
    await admin.query(`create database ${name}`);
    const dbUrl = new URL(provided.url);
    dbUrl.pathname = `/${name}`;
    const owner = new pg.Client({ connectionString: dbUrl.toString() });
    await owner.connect();
    await owner.query(`revoke create on database ${name} from public`);
    await owner.query(`create schema app authorization ${role}`);
    await owner.query(`alter role ${role} in database ${name} set search_path = app`);
    await owner.end();
    cleanup = async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`drop role if exists ${role}`);
      await admin.end();
    };
    const url = new URL(dbUrl);
    url.username = role;
    return { url: url.toString(), poolSize: 2 };
  }

  beforeAll(async () => {
    const database = await bareDatabase();
    t = await startBlogAdmin({
      database,
      logger: { info() {}, error() {}, warn: (message: string, fields?: Record<string, unknown>) => warnings.push({ message, fields }) },
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await cleanup();
  });

  it('runs every migration, without the trigram indexes but with the sort indexes', async () => {
    const names = (await t.sql<{ name: string }>(`select name from cms_migrations order by id`)).map((row) => row.name);
    expect(names).toContain('cms.journal/0003-list-indexes');
    expect(names).toContain('acme.catalog/0003-list-indexes');
    const [ext] = await t.sql<{ n: number }>(`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`);
    expect(ext!.n).toBe(0);
    const indexes = await t.sql<{ indexname: string }>(`select indexname from pg_indexes where tablename = 'journal_posts'`);
    const found = indexes.map((row) => row.indexname);
    expect(found).toContain('journal_posts_title_id');
    expect(found.filter((name) => name.endsWith('_trgm'))).toEqual([]);
    expect(Object.keys(await indexesOf(t, 'acme_catalog_products')).filter((name) => name.endsWith('_trgm'))).toEqual([]);
  });

  it('logs one warning at start-up naming pg_trgm', () => {
    const trgm = warnings.filter((warning) => /pg_trgm/.test(warning.message));
    expect(trgm).toHaveLength(1);
    expect(String(trgm[0]!.fields?.fix)).toMatch(/CREATE privilege/);
  });

  it('searches all the same, unindexed', async () => {
    await seedPosts(t, 30, { prefix: 'Plain' });
    const su = await signIn(t, { isSuperuser: true });
    const res = await su.get(POSTS, { search: 'lain 001', per_page: '20' });
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(10);
    expect(res.body.data.map((row: { title: string }) => row.title).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `Plain 001${i}`));
  });
});
