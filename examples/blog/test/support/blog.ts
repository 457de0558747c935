import { startTestAdmin, type TestAdmin, type TestAdminOptions } from '../../../../test/support/app.ts';
import { plugins } from '../../src/plugins/index.ts';

/** The admin with the example app's plugins (the journal and the catalog), as the app mounts them. */
export const startBlogAdmin = (options: TestAdminOptions = {}): Promise<TestAdmin> => startTestAdmin({ plugins, ...options });

export const POSTS = 'cms/journal/posts';
export const CATEGORIES = 'cms/journal/categories';
export const PRODUCTS = 'acme/catalog/products';
export const STOREFRONT = 'acme/catalog/storefront';

/** Categories by name, inserted in order; answers their ids. */
/** One id per name, in order (typed as a tuple of the names' length). */
export async function seedCategories<const N extends readonly string[]>(
  t: TestAdmin,
  names: N,
): Promise<{ -readonly [K in keyof N]: number }> {
  const ids: number[] = [];
  for (const [index, name] of names.entries()) {
    const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${Math.random().toString(36).slice(2, 8)}`;
    const rows = await t.sql<{ id: number }>('insert into journal_categories (name, slug, sort_order) values (?, ?, ?) returning id', [
      name,
      slug,
      index,
    ]);
    ids.push(Number(rows[0]!.id));
  }
  return ids as { -readonly [K in keyof N]: number };
}

/**
 * `count` posts in one statement: titles `Post 0001`…, a published date a day apart (newest last),
 * every third one archived, each by `authorId`, each in every category of `categoryIds`.
 */
export async function seedPosts(
  t: TestAdmin,
  count: number,
  options: { authorId?: number | null; categoryIds?: readonly number[]; prefix?: string } = {},
): Promise<number[]> {
  const prefix = options.prefix ?? 'Post';
  const rows = await t.sql<{ id: number }>(
    `insert into journal_posts (title, slug, status, published_at, author_id)
     select ? || ' ' || lpad(n::text, 4, '0'), lower(?) || '-' || n, case when n % 3 = 0 then 'archived' else 'published' end,
            timestamptz '2024-01-01 00:00:00+00' + (n || ' days')::interval, ?
     from generate_series(1, ?) as n order by n returning id`,
    [prefix, prefix, options.authorId ?? null, count],
  );
  const ids = rows.map((row) => Number(row.id));
  for (const categoryId of options.categoryIds ?? []) {
    // Ids are integers from the database: safe to inline (the driver would expand an array binding).
    await t.sql(
      `insert into journal_posts_categories (post_id, category_id) select id, ? from journal_posts where id in (${ids.join(',')}) order by id`,
      [categoryId],
    );
  }
  return ids;
}
