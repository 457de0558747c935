import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { AdminCore } from '@cms/admin-core/adapter';
import { nodeListener } from '@cms/admin-core/node';
import { plugins } from '../src/plugins/index.ts';
import { cpuBetween, cpuSnapshot } from './cpu.ts';

/*
 * The reorder workloads of `pnpm bench` (docs/performance.md, "Reorder"): one request saves the
 * order of 5,000 nodes. Not a load against a floor: requests one after the other, each with a new
 * order, timed from the bench process, with the CPU time of the app and of PostgreSQL per request,
 * and the SQL statements of one request counted by an admin started in the bench process.
 */

export interface ReorderWorkload {
  id: 'R1' | 'R2';
  title: string;
  /** The controller's address under the API prefix. */
  controller: string;
  tree: boolean;
  /** Rows the table is seeded to: the scoped set of the reorder is the whole table. */
  nodes: number;
}

export const reorderWorkloads: ReorderWorkload[] = [
  { id: 'R1', title: 'reorder 5,000 products (flat)', controller: 'acme/catalog/products', tree: false, nodes: 5000 },
  { id: 'R2', title: 'reorder 5,000 categories (tree, 3 levels)', controller: 'cms/journal/categories', tree: true, nodes: 5000 },
];

/** Requests thrown away, then measured; a time cap keeps a slow machine bounded. */
const WARM_UP = 3;
const MEASURED = 20;
const CAP_MS = 60_000;
const API = '/backend/api/v1';

/**
 * Tops the table of each selected workload up to its node count (in one statement; products and
 * categories the bench adds are named `bench-reorder-…`) and vacuums it. Answers the rows each
 * table then holds.
 */
export async function seedReorder(url: string, selected: ReorderWorkload[], log: (line: string) => void): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const counts = new Map<string, number>();
  try {
    for (const workload of selected) {
      const table = workload.tree ? 'journal_categories' : 'acme_catalog_products';
      const have = Number((await client.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]!.n);
      if (have < workload.nodes) {
        log(`${workload.id}: adding ${(workload.nodes - have).toLocaleString('en')} rows to ${table}`);
        await client.query(
          workload.tree
            ? `insert into journal_categories (name, slug, sort_order)
               select 'Reorder category ' || n, 'bench-reorder-category-' || n || '-' || md5(random()::text), n
               from generate_series(1, $1::int) as n`
            : `insert into acme_catalog_products (name, sku, sort_order)
               select 'Reorder product ' || n, 'bench-reorder-' || n || '-' || substr(md5(random()::text), 1, 8), n
               from generate_series(1, $1::int) as n`,
          [workload.nodes - have],
        );
      }
      // Every save writes a new version of each row: without a vacuum, earlier runs' dead rows
      // would slow this one down, and runs would not compare.
      await client.query(`vacuum (analyze) ${table}`);
      counts.set(workload.id, Number((await client.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]!.n));
    }
  } finally {
    await client.end();
  }
  return counts;
}

interface Node {
  id: number;
  parent_id: number | null;
}

/** A small seeded PRNG (mulberry32): every run sends the same sequence of orders. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A new order of every node: a shuffle; for a tree, also new parents (a hundred roots, every
 * other node under an earlier one at most on level 2, so that no level exceeds 3). Nearly every
 * row changes its position, and for a tree its parent.
 */
function newOrder(ids: readonly number[], tree: boolean, next: () => number): Node[] {
  const order = [...ids];
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  if (!tree) return order.map((id) => ({ id, parent_id: null }));
  const level = new Map<number, number>();
  const parents: number[] = [];
  return order.map((id, index) => {
    const parent = index < 100 ? null : parents[Math.floor(next() * parents.length)]!;
    const depth = parent === null ? 1 : level.get(parent)! + 1;
    level.set(id, depth);
    if (depth < 3) parents.push(id);
    return { id, parent_id: parent };
  });
}

export interface ReorderResult {
  workload: ReorderWorkload;
  nodes: number;
  bodyBytes: number;
  /** Milliseconds per POST, sorted. */
  save: number[];
  /** Milliseconds per GET of the whole set, sorted. */
  read: number[];
  /** CPU milliseconds per POST of the app process and of the database's backends. */
  serverCpu: number | undefined;
  databaseCpu: number | undefined;
  statements: { save: number; read: number; updates: number };
}

async function call(url: string, token: string, method: 'GET' | 'POST', body?: unknown) {
  const started = performance.now();
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 300)}`);
  return { ms, json: JSON.parse(text) as { data: Node[]; meta: { total: number } } };
}

/**
 * One workload against the app in its child process: a GET of the whole set, then requests one
 * after the other, each saving a new order and checked to answer it back.
 */
export async function runReorder(
  workload: ReorderWorkload,
  app: { url: string; pid: number | undefined; token: string },
  stats: pg.Client | undefined,
  statements: StatementCounter,
): Promise<ReorderResult> {
  const url = `${app.url}${API}/${workload.controller}/reorder`;
  const first = await call(url, app.token, 'GET');
  const ids = first.json.data.map((node) => node.id);
  const next = random(20240612);
  const orders = Array.from({ length: WARM_UP + MEASURED }, () => newOrder(ids, workload.tree, next));
  const save: number[] = [];
  const read: number[] = [];
  let cpu = { server: 0, database: 0, known: true };
  const started = performance.now();
  for (const [index, nodes] of orders.entries()) {
    const measured = index >= WARM_UP;
    const before = measured ? await cpuSnapshot(app.pid, stats) : undefined;
    const answer = await call(url, app.token, 'POST', { nodes });
    if (before) {
      const used = cpuBetween(before, await cpuSnapshot(app.pid, stats));
      if (used.server === undefined || used.database === undefined) cpu = { ...cpu, known: false };
      cpu.server += used.server ?? 0;
      cpu.database += used.database ?? 0;
      save.push(answer.ms);
      read.push((await call(url, app.token, 'GET')).ms);
    }
    if (answer.json.meta.total !== ids.length) throw new Error(`${workload.id}: the answer holds ${answer.json.meta.total} nodes`);
    if (!workload.tree && answer.json.data.some((node, at) => node.id !== nodes[at]!.id))
      throw new Error(`${workload.id}: the answer is not the order sent`);
    if (performance.now() - started > CAP_MS) break;
  }
  const counted = await statements.count(workload, newOrder(ids, workload.tree, next));
  return {
    workload,
    nodes: ids.length,
    bodyBytes: Buffer.byteLength(JSON.stringify({ nodes: orders[0] })),
    save: save.sort((a, b) => a - b),
    read: read.sort((a, b) => a - b),
    serverCpu: cpu.known && save.length ? cpu.server / save.length : undefined,
    databaseCpu: cpu.known && save.length ? cpu.database / save.length : undefined,
    statements: counted,
  };
}

export interface StatementCounter {
  count(workload: ReorderWorkload, nodes: Node[]): Promise<{ save: number; read: number; updates: number }>;
  close(): Promise<void>;
}

/**
 * The example app's admin (its plugins, on the bench database) started in the bench process with
 * the core's `onQuery` hook, served on 127.0.0.1: the statements the ORM runs for one GET and one
 * POST. The hook does not see the guard's prepared token lookup nor BEGIN and COMMIT: one and two
 * more round trips (docs/performance.md, "Reorder"). Counting needs the hook, which the app in its
 * child process does not set.
 */
export async function statementCounter(
  databaseUrl: string,
  secret: string,
  storageRoot: string,
  login: { login: string; password: string },
): Promise<StatementCounter> {
  const queries: string[] = [];
  const core = await AdminCore.create(
    {
      backend: { uri: '/backend', cookie_secure: false },
      database: { url: databaseUrl, poolSize: 2 },
      secret,
      locales: ['en', 'de'],
      fallbackLocale: 'en',
      plugins,
      storage: { root: storageRoot },
      logger: { info() {}, warn() {}, error() {} },
    },
    { onQuery: (sql) => queries.push(sql) },
  );
  const server: Server = createServer(nodeListener(core));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signIn = await fetch(`${base}${API}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(login),
  });
  const token = ((await signIn.json()) as { data: { access_token: string } }).data.access_token;
  return {
    async count(workload, nodes) {
      const url = `${base}${API}/${workload.controller}/reorder`;
      queries.length = 0;
      await call(url, token, 'GET');
      const read = queries.length;
      queries.length = 0;
      await call(url, token, 'POST', { nodes });
      return { read, save: queries.length, updates: queries.filter((sql) => /^\s*update\b/i.test(sql)).length };
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await core.close();
    },
  };
}

/** The table of the reorder workloads. */
export function reorderTable(results: ReorderResult[]): string {
  const at = (values: number[], q: number) => values[Math.min(values.length - 1, Math.ceil(q * values.length) - 1)]!;
  const fmt = (value: number | undefined) =>
    value === undefined ? '-' : value >= 100 ? Math.round(value).toLocaleString('en') : value.toFixed(1);
  const rows = [
    [
      'workload',
      'nodes',
      'body KB',
      'POSTs',
      'p50 ms',
      'max ms',
      'CPU ms/req',
      'DB CPU ms/req',
      'statements',
      'GET p50 ms',
      'GET statements',
    ],
  ];
  for (const r of results) {
    rows.push([
      `${r.workload.id} ${r.workload.title}`,
      r.nodes.toLocaleString('en'),
      (r.bodyBytes / 1024).toFixed(0),
      String(r.save.length),
      fmt(at(r.save, 0.5)),
      fmt(at(r.save, 1)),
      fmt(r.serverCpu),
      fmt(r.databaseCpu),
      `${r.statements.save} (${r.statements.updates} update)`,
      fmt(at(r.read, 0.5)),
      String(r.statements.read),
    ]);
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}
