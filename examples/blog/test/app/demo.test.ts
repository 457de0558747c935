import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExampleApp } from '../../src/app.ts';
import { demoLine } from '../../src/demo.ts';
import type { Env } from '../../src/env.ts';
import { API, createTestDatabase, start as startApp, type Started, type TestDatabase } from '../support/app.ts';

const PASSWORD = 'demo data password';

/** The example app with a known superuser password. */
const start = (db: TestDatabase, dataDir: string, env: Env = {}): Promise<Started> =>
  startApp(db, dataDir, { ADMIN_PASSWORD: PASSWORD, ...env });

interface Envelope<T, M = Record<string, unknown>> {
  data: T;
  meta: M;
}
type ListMeta = { total: number; row_states?: Record<string, string[]> };

async function signIn(app: ExampleApp): Promise<(path: string) => Promise<Envelope<any, any>>> {
  const response = await fetch(`${app.url}${API}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'admin', password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  const token = ((await response.json()) as Envelope<{ access_token: string }>).data.access_token;
  return async (path) => {
    const answer = await fetch(`${app.url}${API}${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status, path).toBe(200);
    return (await answer.json()) as Envelope<any, any>;
  };
}

async function counts(app: ExampleApp) {
  const rows = await app.admin.core.db.orm.em.fork().execute(
    `select (select count(*) from journal_categories)::int as categories,
            (select count(*) from journal_posts)::int as posts,
            (select count(*) from journal_comments)::int as comments,
            (select count(*) from acme_catalog_products)::int as products,
            (select count(*) from acme_catalog_storefront)::int as storefronts`,
  );
  return rows[0] as Record<string, number>;
}

describe('the example app with CMS_DEMO_DATA=1', () => {
  let db: TestDatabase;
  let dataDir: string;
  const running: ExampleApp[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'cms-example-demo-'));
  });
  afterAll(async () => {
    for (const app of running) await app.close();
    await db.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('without the flag seeds nothing but the superuser', async () => {
    const plain = await start(db, dataDir);
    running.push(plain.app);
    expect(plain.lines).toEqual([`Admin ready at ${plain.app.url} - sign in as "admin" with the password from ADMIN_PASSWORD`]);
    expect(await counts(plain.app)).toEqual({ categories: 0, posts: 0, comments: 0, products: 0, storefronts: 0 });
    await plain.app.close();
  });

  it('seeds the journal and the catalog, says so in one line, then logs the ready line', async () => {
    const demo = await start(db, dataDir, { CMS_DEMO_DATA: '1' });
    running.push(demo.app);
    expect(demo.lines).toHaveLength(2);
    expect(demo.lines[0]).toBe(
      'CMS_DEMO_DATA=1: seeded demo content: 8 categories, 11 posts and 6 comments in the journal; 6 products and a storefront in the catalog.',
    );
    expect(demo.lines[1]).toMatch(/^Admin ready at /);
    expect(await counts(demo.app)).toEqual({ categories: 8, posts: 11, comments: 6, products: 6, storefronts: 1 });

    const get = await signIn(demo.app);
    const posts = await get('/cms/journal/posts?per_page=50');
    expect((posts.meta as ListMeta).total).toBe(11);
    // Seeded after the superuser: every post has it as author (a relation column shows the label).
    expect(new Set(posts.data.map((post: { author: unknown }) => post.author))).toEqual(new Set(['admin']));
    const installing = posts.data.find((post: { title: string }) => post.title === 'Installing the admin');
    expect([...installing.categories].sort()).toEqual(['Getting started', 'Installation']);
    // The two archived posts carry the row state `disabled`.
    expect(Object.values((posts.meta as ListMeta).row_states ?? {})).toEqual([['disabled'], ['disabled']]);
    const published = await get('/cms/journal/posts?filter[status]=published');
    expect((published.meta as ListMeta).total).toBe(7);

    expect(((await get('/cms/journal/categories')).meta as ListMeta).total).toBe(8);
    const products = await get('/acme/catalog/products');
    expect((products.meta as ListMeta).total).toBe(6);
    expect(products.data.find((product: { sku: string }) => product.sku === 'LAMP-001')).toMatchObject({
      name: 'Desk lamp',
      price: '49.90',
      currency: 'EUR',
    });
    const storefront = await get('/acme/catalog/storefront/singleton');
    expect(storefront.data).toMatchObject({
      name: 'Acme Office Supplies',
      tagline: 'Everything for a calmer desk.',
      announcement: { en: 'Free delivery on orders over 50 euros.', de: 'Versandkostenfrei ab 50 Euro.' },
      about: '<p>A small shop for <strong>paper</strong>, pens and <em>good</em> desk lamps.</p>',
      open_on_sundays: false,
    });
    // The demo's markup is kept as written: the sanitizer had nothing to remove.
    expect(storefront.meta).not.toHaveProperty('notices');
    await demo.app.close();
  });

  it('a second start with the flag adds nothing and says so', async () => {
    const again = await start(db, dataDir, { CMS_DEMO_DATA: '1' });
    running.push(again.app);
    expect(again.lines).toEqual([
      'CMS_DEMO_DATA=1: the journal and the catalog already have content; no demo content was added.',
      `Admin ready at ${again.app.url} - sign in as "admin"`,
    ]);
    expect(await counts(again.app)).toEqual({ categories: 8, posts: 11, comments: 6, products: 6, storefronts: 1 });
    await again.app.close();
  });
});

describe('the demo data line', () => {
  const journal = { seeded: true, categories: 8, posts: 11, comments: 6 };
  const catalog = { seeded: true, products: 6, storefronts: 1 };

  it('names the part that already had content when only the other one was seeded', () => {
    expect(demoLine({ journal, catalog: { seeded: false, products: 0, storefronts: 0 } })).toBe(
      'CMS_DEMO_DATA=1: seeded demo content: 8 categories, 11 posts and 6 comments in the journal; the catalog already had content and got none.',
    );
    expect(demoLine({ journal: { seeded: false, categories: 0, posts: 0, comments: 0 }, catalog })).toBe(
      'CMS_DEMO_DATA=1: seeded demo content: 6 products and a storefront in the catalog; the journal already had content and got none.',
    );
  });
});
