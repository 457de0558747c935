import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { hashToken, verifyToken } from './token.ts';
import { childControl } from './processes.ts';

/**
 * The floor: what the four benchmark requests cost without the admin. A bare `node:http` server
 * with a `pg` pool of the app's size that, per request, checks the bearer token (its SHA-256
 * looked up in `bench_floor_tokens`, joined to the live admin; a non-superuser is refused),
 * then runs the same SQL statements as the app for the same answer and JSON-serializes it:
 *
 * - list (W1-W3): `count(*)`, the page (`order by published_at desc, id desc limit 20 offset n`,
 *   with the app's search condition `title ilike '%term%' or slug ilike '%term%'`), the author
 *   logins of the page in one query, the category names of the page in one query;
 * - show (W4): the post's row, its categories in pivot order, its author's login.
 *
 * The search is written as `(title || '') ilike …`: the same rows as the app's condition, but
 * an expression no index serves, so that the floor stays the naive scan after the journal's
 * migrations added trigram indexes (docs/performance.md, "The floors"). Deep pages keep `OFFSET`.
 *
 * With `FLOOR_AUTH=token` it is the token-verify floor: no database for the credential, the
 * bearer token is an HMAC-SHA256-signed claim (`FLOOR_TOKEN_SECRET`, bench/token.ts) checked in
 * process, as a design that trusts a signed cookie does; the data SQL is the same.
 *
 * No validation beyond the numbers it needs, no localisation, no permissions model, no
 * envelope headers: what is left is the database work, the token check and serialization.
 * Run by the bench in a child process: `FLOOR_DATABASE_URL=... node bench/floor.ts`.
 */

const PER_PAGE = 20;
const LIST_PATH = '/backend/api/v1/cms/journal/posts';

const pool = new pg.Pool({ connectionString: process.env.FLOOR_DATABASE_URL, max: Number(process.env.FLOOR_POOL_SIZE ?? 10) });

interface Answer {
  status: number;
  body: unknown;
}

const refuse = (status: number, code: string): Answer => ({ status, body: { error: { code, message: code, details: {} } } });

const signedSecret = process.env.FLOOR_AUTH === 'token' ? process.env.FLOOR_TOKEN_SECRET : undefined;
if (process.env.FLOOR_AUTH === 'token' && !signedSecret) throw new Error('FLOOR_AUTH=token needs FLOOR_TOKEN_SECRET');

async function authorized(req: IncomingMessage): Promise<Answer | undefined> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match) return refuse(401, 'unauthenticated');
  if (signedSecret) {
    const claims = verifyToken(match[1]!, signedSecret);
    if (!claims) return refuse(401, 'unauthenticated');
    return claims.superuser ? undefined : refuse(403, 'forbidden');
  }
  const { rows } = await pool.query<{ is_superuser: boolean }>(
    `select a.is_superuser from bench_floor_tokens t join cms_admins a on a.id = t.admin_id
     where t.token_hash = $1 and a.deleted_at is null and a.suspended_at is null`,
    [hashToken(match[1]!)],
  );
  if (!rows[0]) return refuse(401, 'unauthenticated');
  return rows[0].is_superuser ? undefined : refuse(403, 'forbidden');
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

async function authorLabels(ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const { rows } = await pool.query<{ id: number; label: string }>('select id, login as label from cms_admins where id = any($1)', [
    unique,
  ]);
  return new Map(rows.map((row) => [row.id, row.label]));
}

async function categoryOptions(postIds: number[]): Promise<Map<number, Array<{ label: string; value: number }>>> {
  const result = new Map<number, Array<{ label: string; value: number }>>(postIds.map((id) => [id, []]));
  const { rows } = await pool.query<{ owner: number; id: number; label: string }>(
    `select p.post_id as owner, t.id, t.name as label
     from journal_posts_categories p join journal_categories t on t.id = p.category_id
     where p.post_id = any($1) order by p.post_id, p.sort_order, t.id`,
    [postIds],
  );
  for (const row of rows) result.get(row.owner)?.push({ label: row.label, value: row.id });
  return result;
}

async function list(params: URLSearchParams): Promise<Answer> {
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const search = (params.get('search') ?? '').trim();
  // `|| ''`: no trigram index serves the expression, the scan stays today's naive one.
  const where = search ? `where (title || '') ilike $1 or (slug || '') ilike $1` : '';
  const args = search ? [`%${escapeLike(search)}%`] : [];
  const count = await pool.query<{ total: number }>(`select count(*)::int as total from journal_posts ${where}`, args);
  const total = count.rows[0]!.total;
  const lastPage = Math.max(1, Math.ceil(total / PER_PAGE));
  const meta: Record<string, unknown> = { last_page: lastPage, page, per_page: PER_PAGE, total };
  if (total === 0 || page > lastPage) return { status: 200, body: { data: [], meta } };
  const { rows } = await pool.query<{
    id: number;
    title: string;
    slug: string;
    status: string;
    published_at: Date | null;
    author_id: number | null;
  }>(
    `select id, title, slug, status, published_at, author_id from journal_posts ${where}
     order by published_at desc, id desc limit ${PER_PAGE} offset ${(page - 1) * PER_PAGE}`,
    args,
  );
  const authors = await authorLabels(rows.flatMap((row) => (row.author_id === null ? [] : [row.author_id])));
  const categories = await categoryOptions(rows.map((row) => row.id));
  const states: Record<string, string[]> = {};
  const data = rows.map((row) => {
    if (row.status === 'archived') states[String(row.id)] = ['disabled'];
    return {
      id: row.id,
      title: row.title,
      slug: row.slug,
      status: row.status,
      published_at: row.published_at,
      author: row.author_id === null ? null : (authors.get(row.author_id) ?? null),
      categories: (categories.get(row.id) ?? []).map((option) => option.label),
    };
  });
  if (Object.keys(states).length) meta.row_states = states;
  return { status: 200, body: { data, meta } };
}

async function show(id: number): Promise<Answer> {
  const { rows } = await pool.query('select * from journal_posts where id = $1 limit 1', [id]);
  const post = rows[0];
  if (!post) return refuse(404, 'not_found');
  const categories = (await categoryOptions([id])).get(id) ?? [];
  const author = post.author_id === null ? undefined : (await authorLabels([post.author_id])).get(post.author_id);
  return {
    status: 200,
    body: {
      data: {
        id: post.id,
        title: post.title,
        slug: post.slug,
        excerpt: post.excerpt,
        content: post.content,
        status: post.status,
        published_at: post.published_at,
        tags: post.tags,
        categories: categories.map((option) => option.value),
        author: post.author_id,
      },
      meta: {
        labels: { categories, author: post.author_id === null ? [] : [{ label: author ?? '', value: post.author_id }] },
        actions: [],
      },
    },
  };
}

async function route(req: IncomingMessage): Promise<Answer> {
  const url = new URL(req.url ?? '/', 'http://floor');
  if (req.method !== 'GET' || !url.pathname.startsWith(LIST_PATH)) return refuse(404, 'not_found');
  const refusal = await authorized(req);
  if (refusal) return refusal;
  if (url.pathname === LIST_PATH) return list(url.searchParams);
  const id = /^\/([1-9]\d{0,9})$/.exec(url.pathname.slice(LIST_PATH.length))?.[1];
  return id ? show(Number(id)) : refuse(404, 'not_found');
}

const send = (res: ServerResponse, answer: Answer) => {
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
};

const server = createServer((req, res) => {
  route(req).then(
    (answer) => send(res, answer),
    (error: unknown) => {
      console.error(error);
      send(res, refuse(500, 'internal_error'));
    },
  );
});

let stopping = false;
const shutdown = () => {
  if (stopping) process.exit(130);
  stopping = true;
  setTimeout(() => process.exit(1), 5000).unref();
  server.close();
  server.closeIdleConnections();
  void pool.end().then(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
childControl(shutdown);

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`Floor ready at http://127.0.0.1:${port}`);
});
