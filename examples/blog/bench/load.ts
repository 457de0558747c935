import autocannon from 'autocannon';

/** One of the four benchmark requests; the path is the same on the app and on the floor. */
export interface Workload {
  id: 'W1' | 'W2' | 'W3' | 'W4';
  title: string;
  path: string;
  /** The target as a ratio of the floor's requests per second, when it sets one. */
  target?: number;
}

const LIST = '/backend/api/v1/cms/journal/posts';

export const workloads = (showId: number): Workload[] => [
  { id: 'W1', title: 'list page 1, published_at desc, with total', path: `${LIST}?sort=published_at&dir=desc`, target: 0.9 },
  { id: 'W2', title: 'title search "fox" (ilike), page 1 + count', path: `${LIST}?sort=published_at&dir=desc&search=fox` },
  { id: 'W3', title: 'page 2000 (offset 39,980) + count', path: `${LIST}?sort=published_at&dir=desc&page=2000` },
  { id: 'W4', title: `show post ${showId} (+ categories, author)`, path: `${LIST}/${showId}`, target: 0.5 },
];

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

/** Load that is thrown away: JIT, connection pools and plan caches settle. */
export async function warmUp(baseUrl: string, token: string, workload: Workload, options: LoadOptions): Promise<void> {
  if (options.warmup <= 0) return;
  const run = fire({ ...common(baseUrl, token, workload, options), duration: options.warmup });
  current = run.stop;
  await run.done;
  current = undefined;
}

/** Loads one server with one workload for `seconds` and records every latency. */
export async function measure(baseUrl: string, token: string, workload: Workload, options: LoadOptions, seconds: number): Promise<Stretch> {
  const latencies: number[] = [];
  const run = fire({ ...common(baseUrl, token, workload, options), duration: seconds }, (latency) => latencies.push(latency));
  current = run.stop;
  const result = await run.done;
  current = undefined;
  return { seconds: result.duration, latencies, failures: result.non2xx + result.errors + result.timeouts };
}
