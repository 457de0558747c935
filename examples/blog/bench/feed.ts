import autocannon from 'autocannon';
import pg from 'pg';

/*
 * The feed workload of `pnpm bench` (docs/performance.md, "The RSS feed"): anonymous clients load
 * `GET /_journal/rss.xml` (100 items, their descriptions rendered from markdown) while one admin
 * asks `GET /lang` one request after the other. Not a load against a floor: what it shows is the
 * feed's latency under load, and whether the feed's work makes an admin wait. The feed is cached
 * (docs/journal.md, "The feed's cache"), so the markdown is rendered once, not per request.
 */

export interface FeedWorkload {
  id: 'F1';
  title: string;
}

export const feedWorkloads: FeedWorkload[] = [{ id: 'F1', title: 'RSS feed (100 items) under load, an admin’s GET /lang meanwhile' }];

export interface FeedResult {
  id: string;
  title: string;
  connections: number;
  feed: { rps: number; p50: number; p99: number; failures: number };
  lang: { requests: number; p50: number; p99: number; max: number };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : 0;

/** Loads the feed for `seconds` with autocannon; answers every latency and the failures. */
function loadFeed(url: string, connections: number, seconds: number): Promise<{ latencies: number[]; failures: number; duration: number }> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, connections, duration: seconds, timeout: 30 }, (error, result) =>
      error ? reject(error) : resolve({ latencies, failures: result.non2xx + result.errors + result.timeouts, duration: result.duration }),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
}

/**
 * Runs F1 on the app: the journal's `rss_limit` is set to 100 for the run (and put back), the feed
 * warmed up, then loaded for `duration` seconds while an admin's `GET /lang` is timed.
 */
export async function runFeed(
  workload: FeedWorkload,
  app: { url: string; dbUrl: string },
  load: { connections: number; warmup: number; duration: number },
): Promise<FeedResult> {
  const db = new pg.Client({ connectionString: app.dbUrl });
  await db.connect();
  const before = await db.query<{ data: unknown }>(`select data from cms_settings where code = 'journal'`);
  try {
    await db.query(
      `insert into cms_settings (code, data) values ('journal', '{"rss_limit": 100}')
       on conflict (code) do update set data = cms_settings.data || '{"rss_limit": 100}'`,
    );
    const feedUrl = `${app.url}/_journal/rss.xml`;
    if (load.warmup > 0) await loadFeed(feedUrl, load.connections, load.warmup);
    let loading = true;
    const lang: number[] = [];
    const admin = (async () => {
      while (loading) {
        const started = performance.now();
        const res = await fetch(`${app.url}/backend/api/v1/lang?locale=en`);
        await res.arrayBuffer();
        lang.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const measured = await loadFeed(feedUrl, load.connections, load.duration);
    loading = false;
    await admin;
    const feed = [...measured.latencies].sort((a, b) => a - b);
    const sortedLang = [...lang].sort((a, b) => a - b);
    return {
      id: workload.id,
      title: workload.title,
      connections: load.connections,
      feed: { rps: feed.length / measured.duration, p50: percentile(feed, 0.5), p99: percentile(feed, 0.99), failures: measured.failures },
      lang: { requests: lang.length, p50: percentile(sortedLang, 0.5), p99: percentile(sortedLang, 0.99), max: sortedLang.at(-1) ?? 0 },
    };
  } finally {
    if (before.rows[0]) await db.query(`update cms_settings set data = $1 where code = 'journal'`, [JSON.stringify(before.rows[0].data)]);
    else await db.query(`delete from cms_settings where code = 'journal'`);
    await db.end();
  }
}

/** The results as a table. */
export function feedTable(results: FeedResult[]): string {
  const ms = (value: number) => value.toFixed(1);
  const lines = [
    '| workload | connections | feed req/s | feed p50 ms | feed p99 ms | GET /lang p50 ms | p99 ms | max ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    lines.push(
      `| ${r.id} ${r.title} | ${r.connections} | ${Math.round(r.feed.rps)} | ${ms(r.feed.p50)} | ${ms(r.feed.p99)} | ${ms(r.lang.p50)} | ${ms(r.lang.p99)} | ${ms(r.lang.max)} |`,
    );
    if (r.feed.failures) lines.push(`${r.id}: ${r.feed.failures} feed requests failed (non-2xx, error or timeout).`);
  }
  return lines.join('\n');
}
