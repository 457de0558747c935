import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminCore } from '@cms/admin-core/adapter';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { startBlogAdmin } from '../support/blog.ts';
import { silentLogger } from '../../../../test/support/logger.ts';
import { plugins } from '../../src/plugins/index.ts';
import { journalPlugin } from '@cms/journal';
import { Category, Comment, Media, Post, journalEntities } from '../../../../packages/journal/src/entities/index.ts';
import { journalMigrations } from '../../../../packages/journal/src/migrations/index.ts';
import { columnsOf, expectSqlError, foreignKeysOf, indexesOf } from '../support/schema.ts';

describe('journal tables', () => {
  let t: TestAdmin;
  beforeAll(async () => {
    t = await startBlogAdmin();
  });
  afterAll(() => t.close());

  it('registers its entities and migrations with the plugin', () => {
    expect(journalPlugin.entities).toBe(journalEntities);
    expect(journalPlugin.migrations).toBe(journalMigrations);
    expect(journalMigrations.map((m) => m.name)).toEqual([
      'cms.journal/0001-init',
      'cms.journal/0002-media',
      'cms.journal/0003-list-indexes',
      'cms.journal/0004-write-notifications',
      'cms.journal/0005-feed-notifications',
    ]);
  });

  it('records its migration in cms_migrations', async () => {
    const rows = await t.sql<{ name: string }>(`select name from cms_migrations where name like 'cms.journal/%' order by id`);
    expect(rows.map((r) => r.name)).toEqual([
      'cms.journal/0001-init',
      'cms.journal/0002-media',
      'cms.journal/0003-list-indexes',
      'cms.journal/0004-write-notifications',
      'cms.journal/0005-feed-notifications',
    ]);
  });

  it('creates journal_categories', async () => {
    const columns = await columnsOf(t, 'journal_categories');
    expect(Object.keys(columns)).toEqual(['id', 'name', 'slug', 'description', 'parent_id', 'sort_order', 'created_at', 'updated_at']);
    expect(columns.name).toMatchObject({ data_type: 'character varying', character_maximum_length: 255, is_nullable: 'NO' });
    expect(columns.description).toMatchObject({ data_type: 'text', is_nullable: 'YES' });
    expect(columns.parent_id).toMatchObject({ data_type: 'integer', is_nullable: 'YES' });
    expect(columns.sort_order).toMatchObject({ data_type: 'integer', is_nullable: 'NO', column_default: '0' });
    expect(columns.created_at!.data_type).toBe('timestamp with time zone');
    expect(await foreignKeysOf(t, 'journal_categories')).toEqual([
      { column: 'parent_id', references: 'journal_categories', on_delete: 'n' },
    ]);
  });

  it('creates journal_posts with its constraints and the list index', async () => {
    const columns = await columnsOf(t, 'journal_posts');
    expect(Object.keys(columns)).toEqual([
      'id',
      'title',
      'slug',
      'excerpt',
      'content',
      'status',
      'published_at',
      'tags',
      'author_id',
      'created_at',
      'updated_at',
    ]);
    expect(columns.title).toMatchObject({ data_type: 'character varying', character_maximum_length: 255, is_nullable: 'NO' });
    expect(columns.excerpt).toMatchObject({ data_type: 'text', is_nullable: 'YES' });
    expect(columns.content).toMatchObject({ data_type: 'text', is_nullable: 'YES' });
    expect(columns.status).toMatchObject({ data_type: 'character varying', is_nullable: 'NO' });
    expect(columns.status!.column_default).toMatch(/^'draft'/);
    expect(columns.published_at).toMatchObject({ data_type: 'timestamp with time zone', is_nullable: 'YES' });
    expect(columns.tags).toMatchObject({ data_type: 'jsonb', is_nullable: 'NO' });
    expect(columns.tags!.column_default).toMatch(/^'\[\]'/);
    expect(await foreignKeysOf(t, 'journal_posts')).toEqual([{ column: 'author_id', references: 'cms_admins', on_delete: 'n' }]);
    const indexes = await indexesOf(t, 'journal_posts');
    expect(indexes.journal_posts_published_at_id).toMatch(/\(published_at DESC, id DESC\)/);
    expect(indexes.journal_posts_slug_unique).toMatch(/UNIQUE/);
    // Lists at scale (docs/performance.md): trigram indexes of the searchable columns, (title, id) for the sort.
    expect(indexes.journal_posts_title_trgm).toMatch(/USING gin \(title gin_trgm_ops\)/);
    expect(indexes.journal_posts_slug_trgm).toMatch(/USING gin \(slug gin_trgm_ops\)/);
    expect(indexes.journal_posts_title_id).toMatch(/USING btree \(title, id\)/);

    await expectSqlError(
      t.sql(`insert into journal_posts (title, slug, status) values ('x', 'bad-status', 'deleted')`),
      /journal_posts_status_check/,
    );
    await expectSqlError(t.sql(`insert into journal_posts (title, slug, tags) values ('x', 'bad-tags', '{}')`), /journal_posts_tags_array/);
    await t.sql(`insert into journal_posts (title, slug) values ('x', 'dup')`);
    await expectSqlError(t.sql(`insert into journal_posts (title, slug) values ('y', 'dup')`), /journal_posts_slug_unique/);
    const [row] = await t.sql<{ status: string; tags: unknown; published_at: unknown }>(
      `select status, tags, published_at from journal_posts where slug = 'dup'`,
    );
    expect(row).toEqual({ status: 'draft', tags: [], published_at: null });
    await t.sql(`delete from journal_posts where slug = 'dup'`);
  });

  it('creates the pivot journal_posts_categories with a sort order', async () => {
    const columns = await columnsOf(t, 'journal_posts_categories');
    expect(Object.keys(columns)).toEqual(['post_id', 'category_id', 'sort_order']);
    expect(columns.sort_order).toMatchObject({ data_type: 'integer', is_nullable: 'NO', is_identity: 'YES' });
    expect(await foreignKeysOf(t, 'journal_posts_categories')).toEqual([
      { column: 'category_id', references: 'journal_categories', on_delete: 'c' },
      { column: 'post_id', references: 'journal_posts', on_delete: 'c' },
    ]);
    const pk = await t.sql<{ def: string }>(
      `select pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'journal_posts_categories'::regclass and contype = 'p'`,
    );
    expect(pk[0]!.def).toBe('PRIMARY KEY (post_id, category_id)');
  });

  it('creates journal_media with a unique path (the media upload reserves its key with it)', async () => {
    const columns = await columnsOf(t, 'journal_media');
    expect(Object.keys(columns)).toEqual(['id', 'path', 'content_type', 'file_size', 'uploaded_by_id', 'created_at']);
    expect(columns.path).toMatchObject({ data_type: 'character varying', character_maximum_length: 512, is_nullable: 'NO' });
    expect(columns.uploaded_by_id).toMatchObject({ data_type: 'integer', is_nullable: 'YES' });
    expect(await foreignKeysOf(t, 'journal_media')).toEqual([{ column: 'uploaded_by_id', references: 'cms_admins', on_delete: 'n' }]);
    await t.sql(`insert into journal_media (path, content_type, file_size) values ('journal/x.png', 'image/png', 1)`);
    await expectSqlError(
      t.sql(`insert into journal_media (path, content_type, file_size) values ('journal/x.png', 'image/png', 2)`),
      /journal_media_path_unique/,
    );
    // The entity maps the same columns.
    const row = await t.core.db.orm.em.fork().findOneOrFail(Media, { path: 'journal/x.png' });
    expect(row).toMatchObject({ path: 'journal/x.png', content_type: 'image/png', file_size: 1, uploaded_by: null });
    await t.sql(`delete from journal_media where path = 'journal/x.png'`);
  });

  it('creates journal_comments with a nullable, cascading post_id', async () => {
    const columns = await columnsOf(t, 'journal_comments');
    expect(Object.keys(columns)).toEqual(['id', 'post_id', 'author_name', 'body', 'is_approved', 'created_at']);
    expect(columns.post_id).toMatchObject({ data_type: 'integer', is_nullable: 'YES' });
    expect(columns.is_approved).toMatchObject({ data_type: 'boolean', is_nullable: 'NO', column_default: 'false' });
    expect(await foreignKeysOf(t, 'journal_comments')).toEqual([{ column: 'post_id', references: 'journal_posts', on_delete: 'c' }]);
  });

  it('maps snake_case properties onto the same column names', () => {
    const meta = t.core.db.orm.getMetadata();
    const post = meta.find(Post.meta.class)!;
    expect(post.tableName).toBe('journal_posts');
    for (const name of ['title', 'slug', 'excerpt', 'content', 'status', 'published_at', 'tags', 'created_at', 'updated_at']) {
      expect(post.properties[name as keyof typeof post.properties]!.fieldNames).toEqual([name]);
    }
    expect(post.properties.author!.fieldNames).toEqual(['author_id']);
    expect(post.properties.categories!.pivotTable).toBe('journal_posts_categories');
    expect(post.properties.categories!.fixedOrderColumn).toBe('sort_order');
    expect(post.properties.comments!.kind).toBe('1:m');
    const category = meta.find(Category.meta.class)!;
    expect(category.properties.parent!.fieldNames).toEqual(['parent_id']);
    expect(category.properties.sort_order!.fieldNames).toEqual(['sort_order']);
    const comment = meta.find(Comment.meta.class)!;
    expect(comment.properties.post!.fieldNames).toEqual(['post_id']);
    expect(comment.properties.post!.nullable).toBe(true);
  });

  it('keeps the submitted order of categories through the ORM (fixedOrder)', async () => {
    const em = t.core.db.orm.em.fork();
    const [a, b, c] = ['Alpha', 'Beta', 'Gamma'].map((name, i) =>
      em.create(Category, { name, slug: `order-${name.toLowerCase()}`, sort_order: i }),
    );
    const post = em.create(Post, { title: 'Ordered', slug: 'ordered', categories: [c!, a!, b!] });
    await em.flush();

    const read = async () => {
      const fresh = t.core.db.orm.em.fork();
      const loaded = await fresh.findOneOrFail(Post, post.id, { populate: ['categories'] });
      return loaded.categories.getItems().map((cat) => cat.name);
    };
    expect(await read()).toEqual(['Gamma', 'Alpha', 'Beta']);

    const em2 = t.core.db.orm.em.fork();
    const again = await em2.findOneOrFail(Post, post.id, { populate: ['categories'] });
    again.categories.set([em2.getReference(Category, b!.id), em2.getReference(Category, c!.id)]);
    await em2.flush();
    expect(await read()).toEqual(['Beta', 'Gamma']);

    // Raw SQL may write explicit positions; the ORM reads them in that order.
    await t.sql('delete from journal_posts_categories where post_id = ?', [post.id]);
    await t.sql('insert into journal_posts_categories (post_id, category_id, sort_order) values (?, ?, 0), (?, ?, 1)', [
      post.id,
      a!.id,
      post.id,
      c!.id,
    ]);
    expect(await read()).toEqual(['Alpha', 'Gamma']);

    // Deleting a category unlinks it; deleting the post drops its links and comments.
    em.create(Comment, { post, author_name: 'Reader', body: 'Nice.' });
    await em.flush();
    await t.sql('delete from journal_categories where id = ?', [a!.id]);
    expect(await read()).toEqual(['Gamma']);
    await t.sql('delete from journal_posts where id = ?', [post.id]);
    const left = await t.sql<{ links: number; comments: number }>(
      'select (select count(*) from journal_posts_categories where post_id = ?)::int as links, (select count(*) from journal_comments where post_id = ?)::int as comments',
      [post.id, post.id],
    );
    expect(left[0]).toEqual({ links: 0, comments: 0 });
  });

  it('sets parent_id and author_id to null when the referenced row goes', async () => {
    const admin = await t.createAdmin();
    const em = t.core.db.orm.em.fork();
    const parent = em.create(Category, { name: 'Parent', slug: 'fk-parent' });
    const child = em.create(Category, { name: 'Child', slug: 'fk-child', parent });
    await em.flush();
    await t.sql(`insert into journal_posts (title, slug, author_id) values ('By', 'fk-author', ?)`, [admin.id]);
    await t.sql('delete from journal_categories where id = ?', [parent.id]);
    await t.sql('delete from cms_admins where id = ?', [admin.id]);
    const rows = await t.sql<{ parent_id: number | null; author_id: number | null }>(
      `select (select parent_id from journal_categories where id = ?) as parent_id, (select author_id from journal_posts where slug = 'fk-author') as author_id`,
      [child.id],
    );
    expect(rows[0]).toEqual({ parent_id: null, author_id: null });
    await t.sql(`delete from journal_posts where slug = 'fk-author'`);
    await t.sql('delete from journal_categories where id = ?', [child.id]);
  });

  it('runs no migration again on a second start', async () => {
    const before = await t.sql<{ id: number; name: string }>('select id, name from cms_migrations order by id');
    const statements: string[] = [];
    const second = await AdminCore.create(
      {
        secret: 'second-start-secret-second-start-0000',
        database: t.db.config,
        plugins,
        logger: silentLogger,
        storage: { root: t.storageRoot },
      },
      { onQuery: (sql) => statements.push(sql) },
    );
    try {
      expect(await second.db.migrate()).toEqual([]);
    } finally {
      await second.close();
    }
    expect(statements.filter((sql) => /create table|alter table|create index/i.test(sql))).toEqual([]);
    const after = await t.sql<{ id: number; name: string }>('select id, name from cms_migrations order by id');
    expect(after).toEqual(before);
  });
});
