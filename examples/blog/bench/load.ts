import autocannon from 'autocannon';

/** One of the benchmark requests; the path is the same on the app and on both floors. */
export interface Workload {
  id: 'W1' | 'W2' | 'W2f' | 'W2r' | 'W2rf' | 'W3' | 'W4';
  title: string;
  path: string;
  /**
   * The issues' target, as a ratio of a floor's requests per second, when they set one; judged at
   * the sizes of `at` (posts; 100,000 when absent).
   */
  target?: { ratio: number; against: 'floor' | 'token'; at?: readonly number[] };
  /** Whether the token-verify floor also serves it (docs/performance.md, "The floors"). */
  tokenFloor?: boolean;
  /** Whether the issue asks it to lose at most half its requests per second from 100k to 1M posts. */
  scales?: boolean;
  /**
   * Served by a second app process without the count cache: every request is the first search
   * of its term, which counts (docs/performance.md, "The workloads").
   */
  firstSearch?: boolean;
}

const LIST = '/backend/api/v1/cms/journal/posts';

/**
 * The workloads for a database of `posts` posts. W3 reads page 2000 (offset 39,980) from 100,000
 * posts up; a smaller database, which has no page 2000, the page at 40% of its rows.
 */
export const workloads = (showId: number, posts = 100_000, rareWord = 'quetzal'): Workload[] => {
  const deep = Math.min(2000, Math.max(2, Math.floor((posts * 0.4) / 20)));
  return [
    {
      id: 'W1',
      title: 'list page 1, published_at desc, with total',
      path: `${LIST}?sort=published_at&dir=desc`,
      target: { ratio: 0.95, against: 'floor' },
      tokenFloor: true,
      scales: true,
    },
    {
      id: 'W2',
      title: 'search "fox" (10% of rows), page 1 + count',
      path: `${LIST}?sort=published_at&dir=desc&search=fox`,
      target: { ratio: 3, against: 'floor' },
      scales: true,
    },
    {
      id: 'W2f',
      title: 'search "fox", first search (counts every time)',
      path: `${LIST}?sort=published_at&dir=desc&search=fox`,
      target: { ratio: 3, against: 'floor', at: [1_000_000] },
      firstSearch: true,
    },
    {
      id: 'W2r',
      title: `search "${rareWord}" (0.5% of rows), page 1 + count`,
      path: `${LIST}?sort=published_at&dir=desc&search=${rareWord}`,
      target: { ratio: 50, against: 'floor', at: [100_000, 1_000_000] },
    },
    {
      id: 'W2rf',
      title: `search "${rareWord}", first search (counts every time)`,
      path: `${LIST}?sort=published_at&dir=desc&search=${rareWord}`,
      target: { ratio: 3, against: 'floor', at: [1_000_000] },
      firstSearch: true,
    },
    {
      id: 'W3',
      title: `page ${deep} (offset ${((deep - 1) * 20).toLocaleString('en')}) + count`,
      path: `${LIST}?sort=published_at&dir=desc&page=${deep}`,
      target: { ratio: 3, against: 'floor' },
    },
    {
      id: 'W4',
      title: `show post ${showId} (+ categories, author)`,
      path: `${LIST}/${showId}`,
      target: { ratio: 0.9, against: 'token', at: [100_000, 1_000_000] },
      tokenFloor: true,
      scales: true,
    },
  ];
};

export interface LoadOptions {
  connections: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds of load before the measurement, thrown away (JIT, pool, plan caches). */
  warmup: number;
}

/** One stretch of load on one server. */
export interface Stretch {
  /** Seconds the load actually ran. */
  seconds: number;
  /** Latency of every answered request, in milliseconds. */
  latencies: number[];
  /** Non-2xx answers, errors and timeouts: any makes the figures meaningless. */
  failures: number;
}

export interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  failures: number;
}

/** Combines stretches: requests per second over their total time, exact latency percentiles. */
export function combine(stretches: Stretch[]): Measurement {
  const latencies = stretches.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const seconds = stretches.reduce((sum, s) => sum + s.seconds, 0);
  const at = (q: number) =>
    latencies.length === 0 ? Number.NaN : latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)]!;
  return {
    rps: seconds > 0 ? latencies.length / seconds : 0,
    p50: at(0.5),
    p99: at(0.99),
    requests: latencies.length,
    failures: stretches.reduce((sum, s) => sum + s.failures, 0),
  };
}

/**
 * Runs autocannon and resolves with its result; `stop` ends it early (Ctrl-C). `onLatency`
 * sees each answer's latency (autocannon's own percentiles are whole milliseconds and cannot
 * be merged across runs).
 */
function fire(options: autocannon.Options, onLatency?: (ms: number) => void): { done: Promise<autocannon.Result>; stop: () => void } {
  let instance: autocannon.Instance | undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
  if (onLatency) instance!.on('response', (_client, _status, _bytes, responseTime) => onLatency(responseTime));
  return { done, stop: () => instance?.stop() };
}

let current: (() => void) | undefined;

/** Stops the load that is running, if any (the bench calls it on Ctrl-C). */
export const stopLoad = () => current?.();

const common = (baseUrl: string, token: string, workload: Workload, options: LoadOptions) => ({
  url: baseUrl + workload.path,
  connections: options.connections,
  headers: { authorization: `Bearer ${token}` },
  timeout: 30,
});

/** Load that is thrown away: JIT, connection pools and plan caches settle. Answers what it saw. */
export async function warmUp(baseUrl: string, token: string, workload: Workload, options: LoadOptions): Promise<Stretch | undefined> {
  if (options.warmup <= 0) return undefined;
  const latencies: number[] = [];
  const run = fire({ ...common(baseUrl, token, workload, options), duration: options.warmup }, (latency) => latencies.push(latency));
  current = run.stop;
  const result = await run.done;
  current = undefined;
  return { seconds: result.duration, latencies, failures: result.non2xx + result.errors + result.timeouts };
}

/**
 * Loads one server with one workload for `seconds` and records every latency. With `amount`
 * it sends that many requests instead, however long they take (for requests slower than a
 * timed stretch could measure: the naive search at a million rows).
 */
export async function measure(
  baseUrl: string,
  token: string,
  workload: Workload,
  options: LoadOptions,
  seconds: number,
  amount?: number,
): Promise<Stretch> {
  const latencies: number[] = [];
  const length = amount === undefined ? { duration: seconds } : { amount };
  const run = fire({ ...common(baseUrl, token, workload, options), ...length }, (latency) => latencies.push(latency));
  current = run.stop;
  const result = await run.done;
  current = undefined;
  return { seconds: result.duration, latencies, failures: result.non2xx + result.errors + result.timeouts };
}

/**
 * Whether a server is too slow on a workload for a timed stretch of `seconds`: its warm-up
 * answered fewer requests than there are connections, or its median latency is over a quarter
 * of the stretch. Requests still running when a timed stretch ends are not counted, so such a
 * stretch would count only the few that happened to finish.
 */
export function tooSlowForTime(warm: Stretch | undefined, seconds: number, connections: number): boolean {
  if (!warm) return false;
  if (warm.latencies.length < connections) return true;
  const sorted = [...warm.latencies].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]! * 4 > seconds * 1000;
}
