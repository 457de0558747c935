import type { EntityManager } from '@mikro-orm/core';
import type { LocalApi, LocalOperations } from '@cms/admin-core';
import type { PostStatus } from './entities/index.ts';

/** Runs raw SQL on the manager's connection, inside its transaction when it has one. */
async function run<T = Record<string, unknown>>(em: EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await em.getConnection().execute(sql, params, 'all', em.getTransactionContext())) as T[];
}

export interface JournalDemoOptions {
  /** Author of the demo posts; default: the first live superuser (none: posts without author). */
  authorId?: number | null;
  /** "Now" for the publication dates (tests pin it). */
  now?: Date;
}

export interface JournalDemoResult {
  /** False when the journal already had categories or posts: nothing was added. */
  seeded: boolean;
  categories: number;
  posts: number;
  comments: number;
}

interface DemoCategory {
  slug: string;
  name: string;
  description: string;
  children?: DemoCategory[];
}

/** A small tree, three levels deep at most (the categories controller's `maxDepth`). */
const CATEGORY_TREE: DemoCategory[] = [
  {
    slug: 'news',
    name: 'News',
    description: 'What happened, and what is about to.',
    children: [
      { slug: 'releases', name: 'Releases', description: 'New versions and what changed.' },
      { slug: 'events', name: 'Events', description: 'Meetups, talks and workshops.' },
    ],
  },
  {
    slug: 'guides',
    name: 'Guides',
    description: 'Step by step.',
    children: [
      {
        slug: 'getting-started',
        name: 'Getting started',
        description: 'First steps with the admin.',
        children: [{ slug: 'installation', name: 'Installation', description: 'From nothing to a running admin.' }],
      },
      { slug: 'plugins', name: 'Plugins', description: 'Writing and mounting plugins.' },
    ],
  },
  { slug: 'opinion', name: 'Opinion', description: 'Longer thoughts.' },
];

interface DemoPost {
  slug: string;
  title: string;
  excerpt: string;
  status: PostStatus;
  /** Days before "now"; omitted for drafts. */
  daysAgo?: number;
  tags: string[];
  /** Category slugs, in the order the post lists them. */
  categories: string[];
  comments?: Array<{ author_name: string; body: string; is_approved: boolean }>;
}

const DEMO_POSTS: DemoPost[] = [
  {
    slug: 'hello-world',
    title: 'Hello, world',
    excerpt: 'The journal is open.',
    status: 'published',
    daysAgo: 60,
    tags: ['welcome'],
    categories: ['news'],
    comments: [
      { author_name: 'Ada', body: 'Congratulations on the launch!', is_approved: true },
      { author_name: 'Grace', body: 'Looking forward to the next posts.', is_approved: true },
    ],
  },
  {
    slug: 'installing-the-admin',
    title: 'Installing the admin',
    excerpt: 'One command, a database, and a superuser.',
    status: 'published',
    daysAgo: 45,
    tags: ['install', 'postgresql'],
    categories: ['installation', 'getting-started'],
    comments: [{ author_name: 'Linus', body: 'Worked first time with the embedded database.', is_approved: true }],
  },
  {
    slug: 'your-first-plugin',
    title: 'Your first plugin',
    excerpt: 'Entities, a migration and a controller in a few dozen lines.',
    status: 'published',
    daysAgo: 30,
    tags: ['plugins', 'typescript'],
    categories: ['plugins', 'guides'],
    comments: [
      { author_name: 'Margaret', body: 'Could you show a belongsToMany field next?', is_approved: true },
      { author_name: 'spam-bot', body: 'Cheap watches here!', is_approved: false },
    ],
  },
  {
    slug: 'release-0-1',
    title: 'Release 0.1',
    excerpt: 'The first public version.',
    status: 'published',
    daysAgo: 21,
    tags: ['release'],
    categories: ['releases', 'news'],
  },
  {
    slug: 'meetup-in-berlin',
    title: 'Meetup in Berlin',
    excerpt: 'Talks, pretzels and plugins.',
    status: 'published',
    daysAgo: 14,
    tags: ['community', 'berlin'],
    categories: ['events'],
    comments: [{ author_name: 'Barbara', body: 'Will the talks be recorded?', is_approved: false }],
  },
  {
    slug: 'why-plugins',
    title: 'Why plugins?',
    excerpt: 'On keeping a core small.',
    status: 'published',
    daysAgo: 7,
    tags: ['architecture'],
    categories: ['opinion'],
  },
  {
    slug: 'markdown-everywhere',
    title: 'Markdown everywhere',
    excerpt: 'Writing posts in Markdown, safely.',
    status: 'published',
    daysAgo: 2,
    tags: ['markdown', 'security'],
    categories: ['guides', 'opinion'],
  },
  {
    slug: 'release-0-2-preview',
    title: 'Release 0.2: a preview',
    excerpt: 'What is coming next.',
    status: 'draft',
    tags: ['release'],
    categories: ['releases'],
  },
  {
    slug: 'notes-on-search',
    title: 'Notes on search',
    excerpt: 'Substring search, trigrams and external engines.',
    status: 'draft',
    tags: [],
    categories: [],
  },
  {
    slug: 'old-roadmap',
    title: 'The old roadmap',
    excerpt: 'Superseded; kept for the record.',
    status: 'archived',
    daysAgo: 120,
    tags: ['roadmap'],
    categories: ['news'],
  },
  {
    slug: 'beta-signup',
    title: 'Beta sign-up',
    excerpt: 'The beta is over.',
    status: 'archived',
    daysAgo: 90,
    tags: ['beta'],
    categories: ['events', 'news'],
  },
];

const demoContent = (post: DemoPost): string =>
  [
    `# ${post.title}`,
    '',
    post.excerpt,
    '',
    'This is demo content. Posts are written in **Markdown**: lists, links and code blocks work.',
    '',
    '- one',
    '- two',
    '',
    '```ts',
    "console.log('hello');",
    '```',
    '',
  ].join('\n');

/**
 * The first live superuser (lowest id), read through the admins list as the system sees it
 * (soft-deleted admins are out of its scope; suspended ones are its `disabled` rows); none: null.
 */
async function firstSuperuser(tx: LocalOperations): Promise<number | null> {
  const ids: number[] = [];
  for (let page = 1, last = 1; page <= last; page++) {
    const admins = await tx.list('cms/backend/admins', { page }, SYSTEM);
    last = admins.meta.last_page;
    const states = admins.meta.row_states ?? {};
    for (const admin of admins.data)
      if (admin.is_superuser === true && !(states[String(admin.id)] ?? []).includes('disabled')) ids.push(Number(admin.id));
  }
  return ids.length ? Math.min(...ids) : null;
}

const POSTS = 'cms/journal/posts';
const CATEGORIES = 'cms/journal/categories';
/** The demo is written by the system actor: its audit rows say so (docs/local-api.md, "The system actor"). */
const SYSTEM = { as: 'system' } as const;

/**
 * Seeds demo categories (a small tree), posts (every status, with tags and ordered categories)
 * and comments through the local API (docs/local-api.md), as the system: the forms' validation,
 * the posts' hooks and the audit log apply as to an editor's saves. Idempotent: nothing happens
 * when the journal already has categories or posts. One transaction behind a lock, so two
 * instances starting at once seed once.
 */
export async function seedJournalDemo(local: LocalApi, options: JournalDemoOptions = {}): Promise<JournalDemoResult> {
  const now = options.now ?? new Date();
  return local.transaction(async (tx) => {
    await tx.lock('cms.journal/demo');
    const existing = [...(await tx.list(CATEGORIES, {}, SYSTEM)).data, ...(await tx.list(POSTS, {}, SYSTEM)).data];
    if (existing.length > 0) return { seeded: false, categories: 0, posts: 0, comments: 0 };

    const authorId = options.authorId === undefined ? await firstSuperuser(tx) : options.authorId;

    // Parents before children, depth first: the order the tree is then saved in.
    const bySlug = new Map<string, number>();
    const order: Array<{ id: number; parent_id: number | null }> = [];
    const addCategories = async (nodes: DemoCategory[], parent: number | null) => {
      for (const node of nodes) {
        const data = { name: node.name, slug: node.slug, description: node.description, parent };
        const id = (await tx.create(CATEGORIES, { data }, SYSTEM)).data.id as number;
        bySlug.set(node.slug, id);
        order.push({ id, parent_id: parent });
        await addCategories(node.children ?? [], id);
      }
    };
    await addCategories(CATEGORY_TREE, null);
    await tx.reorder.save(CATEGORIES, order, SYSTEM);

    let comments = 0;
    for (const demo of DEMO_POSTS) {
      const data = {
        title: demo.title,
        slug: demo.slug,
        excerpt: demo.excerpt,
        content: demoContent(demo),
        status: demo.status,
        published_at: demo.daysAgo === undefined ? null : new Date(now.getTime() - demo.daysAgo * 86_400_000).toISOString(),
        tags: demo.tags,
        categories: demo.categories.map((slug) => bySlug.get(slug)!),
        author: authorId,
      };
      const post = (await tx.create(POSTS, { data }, SYSTEM)).data.id as number;
      for (const comment of demo.comments ?? []) {
        await tx.relations.create(POSTS, { parentId: post, relation: 'comments', data: comment }, SYSTEM);
        comments += 1;
      }
    }
    return { seeded: true, categories: bySlug.size, posts: DEMO_POSTS.length, comments };
  });
}

export interface JournalBenchmarkOptions {
  /** Posts to hold (default 100,000). */
  posts?: number;
  /** Categories to hold (default 50). */
  categories?: number;
}

export interface JournalBenchmarkResult {
  /** Rows in `journal_posts` and `journal_categories` afterwards. */
  posts: number;
  categories: number;
}

/**
 * The shape of the data `seedJournalBenchmark` writes. It changes whenever the seed writes other
 * rows for the same `posts` (titles, dates, categories), so that a database seeded by an earlier
 * version is seeded again rather than measured with other data (docs/performance.md, "The data").
 * 2: one title in 200 contains the rare word of `JOURNAL_BENCHMARK_RARE_WORD`.
 */
export const JOURNAL_BENCHMARK_VERSION = 2;
/** The word of the rare titles (0.5% of the posts, `n % 200 == 57`): the bench's W2r searches it. */
export const JOURNAL_BENCHMARK_RARE_WORD = 'quetzal';

/** Constant SQL literals (no input): title words, so that a title search matches a tenth of the posts. */
const sqlArray = (words: string[]): string => `array[${words.map((w) => `'${w}'`).join(', ')}]`;
const TITLE_WORDS_A = sqlArray(['Quick', 'Lazy', 'Bright', 'Quiet', 'Brave', 'Calm', 'Eager', 'Gentle', 'Happy', 'Proud']);
const TITLE_WORDS_B = sqlArray(['fox', 'river', 'mountain', 'garden', 'harbor', 'forest', 'meadow', 'city', 'island', 'valley']);
/** 123 characters; eight of them plus a heading make about 1 KB of content. */
const FILLER = `'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. '`;

/**
 * Bulk data for the benchmark: `categories` categories (`bench-category-<n>`) and `posts` posts
 * (`bench-post-<n>`, about 1 KB of Markdown each, one to three categories, most published with
 * distinct `published_at` values, every tenth a draft, every 25th archived; a tenth of the titles
 * contain "fox", one in 200 "quetzal" (`JOURNAL_BENCHMARK_RARE_WORD`)), inserted set-based
 * with `generate_series` in one transaction. Re-running adds only what is missing. Afterwards the
 * tables are vacuumed and analyzed (only analyzed when `em` is inside a transaction), so that
 * plans and `count(*)` are those of a settled database.
 */
export async function seedJournalBenchmark(em: EntityManager, options: JournalBenchmarkOptions = {}): Promise<JournalBenchmarkResult> {
  const posts = options.posts ?? 100_000;
  const categories = options.categories ?? 50;
  if (!Number.isInteger(posts) || posts < 0 || !Number.isInteger(categories) || categories < 1) {
    throw new RangeError('seedJournalBenchmark: posts must be an integer >= 0 and categories an integer >= 1');
  }
  const inTransaction = em.getTransactionContext() !== undefined;
  await em.transactional(async (tx) => {
    await run(
      tx,
      `insert into journal_categories (name, slug, description, sort_order)
       select 'Category ' || g, 'bench-category-' || g, 'Benchmark category ' || g, g
       from generate_series(1, ?::int) as g
       on conflict (slug) do nothing`,
      [categories],
    );
    await run(
      tx,
      `insert into journal_posts (title, slug, excerpt, content, status, published_at, tags, author_id, created_at, updated_at)
       select
         (${TITLE_WORDS_A})[1 + g % 10] || ' ' || (${TITLE_WORDS_B})[1 + (g / 10) % 10]
           || case when g % 200 = 57 then ' ${JOURNAL_BENCHMARK_RARE_WORD}' else '' end || ' ' || g,
         'bench-post-' || g,
         'Excerpt of benchmark post ' || g || '.',
         '# Benchmark post ' || g || E'\\n\\n' || repeat(${FILLER}, 8),
         case when g % 10 = 0 then 'draft' when g % 25 = 0 then 'archived' else 'published' end,
         case when g % 10 = 0 then null else now() - g * interval '13 minutes' end,
         jsonb_build_array('topic-' || g % 20, 'series-' || g % 7),
         (select id from cms_admins where is_superuser and deleted_at is null order by id limit 1),
         now() - g * interval '13 minutes',
         now() - g * interval '13 minutes'
       from generate_series(1, ?::int) as g
       on conflict (slug) do nothing`,
      [posts],
    );
    // One to three categories per post, in a deterministic order.
    await run(
      tx,
      `insert into journal_posts_categories (post_id, category_id, sort_order)
       select p.id, c.ids[1 + (p.n * k.mult) % c.total], k.pos
       from (select id, substr(slug, 12)::int as n from journal_posts where slug like 'bench-post-%') as p
       cross join (select array_agg(id order by sort_order, id) as ids, count(*)::int as total
                   from journal_categories where slug like 'bench-category-%') as c
       cross join (values (1, 1), (2, 7), (3, 13)) as k(pos, mult)
       where k.pos <= 1 + p.n % 3
       on conflict do nothing`,
    );
  });
  const maintenance = inTransaction ? 'analyze' : 'vacuum analyze';
  for (const table of ['journal_categories', 'journal_posts', 'journal_posts_categories']) {
    await run(em, `${maintenance} ${table}`);
  }
  const counts = await run<{ posts: number; categories: number }>(
    em,
    'select (select count(*) from journal_posts)::int as posts, (select count(*) from journal_categories)::int as categories',
  );
  return { posts: Number(counts[0]!.posts), categories: Number(counts[0]!.categories) };
}
