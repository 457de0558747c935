import { request } from 'node:http';

/*
 * The refusal workload of `pnpm bench` (docs/performance.md, "Refusals"; docs/errors.md,
 * "Bounded refusals"): bodies that break their schema many times (100,000 unknown keys, 250,000
 * ids), sent one after the other, against a floor measured in the same run: the round trip of a
 * small refused body plus this process's `JSON.parse` of the same hostile text. What a refusal
 * costs beyond parsing is the difference; its answer's size is printed too. The anonymous login
 * runs fewer times than the others: its refusals count toward the address throttle.
 */

export interface RefusalWorkload {
  id: 'E1';
  title: string;
}

export const refusalWorkloads: RefusalWorkload[] = [{ id: 'E1', title: 'refusals of bodies that break their schema many times' }];

interface Case {
  name: string;
  method: 'POST' | 'PUT';
  path: string;
  anonymous?: boolean;
  body: string;
  small: string;
  runs: number;
}

export interface RefusalRow {
  name: string;
  bodyBytes: number;
  answerBytes: number;
  status: number;
  /** Median round trip of the hostile body, ms. */
  refusal: number;
  /** Median round trip of the small refused body plus the median local parse of the hostile text, ms. */
  floor: number;
}

export interface RefusalResult {
  id: string;
  title: string;
  rows: RefusalRow[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function unknownKeys(n: number, base: Record<string, unknown>): string {
  const body: Record<string, unknown> = { ...base };
  for (let i = 0; i < n; i++) body[`k${i.toString(36)}`] = 0;
  return JSON.stringify(body);
}

function send(url: string, c: Case, body: string, token: string): Promise<{ ms: number; status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    if (!c.anonymous) headers.authorization = `Bearer ${token}`;
    const req = request(`${url}${c.path}`, { method: c.method, headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Each case: 2 thrown away, then `runs` of the hostile body and as many of the small one, alternated. */
export async function runRefusals(workload: RefusalWorkload, target: { url: string; token: string }): Promise<RefusalResult> {
  const api = '/backend/api/v1';
  const cases: Case[] = [
    {
      name: 'POST /auth/login, 100,000 unknown keys (anonymous)',
      method: 'POST',
      path: `${api}/auth/login`,
      anonymous: true,
      body: unknownKeys(100_000, { login: 'nobody', password: 'x' }),
      small: unknownKeys(1, { login: 'nobody', password: 'x' }),
      runs: 7,
    },
    {
      name: 'POST a post, 80,000 unknown keys',
      method: 'POST',
      path: `${api}/cms/journal/posts`,
      body: unknownKeys(80_000, { title: 'A title' }),
      small: unknownKeys(1, { title: 'A title' }),
      runs: 15,
    },
    {
      name: 'POST posts/bulk-delete, 250,000 ids',
      method: 'POST',
      path: `${api}/cms/journal/posts/bulk-delete`,
      body: JSON.stringify({ ids: new Array(250_000).fill(1) }),
      small: JSON.stringify({ ids: [] }),
      runs: 15,
    },
    {
      name: 'POST posts/bulk-delete, 1,000 ids of the wrong type',
      method: 'POST',
      path: `${api}/cms/journal/posts/bulk-delete`,
      body: JSON.stringify({ ids: Array.from({ length: 1000 }, () => 'x'.repeat(900)) }),
      small: JSON.stringify({ ids: ['x'] }),
      runs: 15,
    },
  ];
  const rows: RefusalRow[] = [];
  for (const c of cases) {
    const parse: number[] = [];
    const hostile: number[] = [];
    const small: number[] = [];
    let last = { status: 0, bytes: 0 };
    for (let run = 0; run < c.runs + 2; run++) {
      const big = await send(target.url, c, c.body, target.token);
      const little = await send(target.url, c, c.small, target.token);
      const started = performance.now();
      JSON.parse(c.body);
      const parsed = performance.now() - started;
      if (run < 2) continue;
      hostile.push(big.ms);
      small.push(little.ms);
      parse.push(parsed);
      last = big;
    }
    rows.push({
      name: c.name,
      bodyBytes: Buffer.byteLength(c.body),
      answerBytes: last.bytes,
      status: last.status,
      refusal: median(hostile),
      floor: median(small) + median(parse),
    });
  }
  return { id: workload.id, title: workload.title, rows };
}

export function refusalTable(results: RefusalResult[]): string {
  const lines = [
    '| workload | body | body KiB | status | answer bytes | floor ms | refusal ms | ratio | beyond the floor, ms |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    for (const row of r.rows) {
      lines.push(
        `| ${r.id} | ${row.name} | ${Math.round(row.bodyBytes / 1024)} | ${row.status} | ${row.answerBytes} | ${row.floor.toFixed(1)} | ${row.refusal.toFixed(1)} | ${(row.refusal / row.floor).toFixed(2)}x | ${(row.refusal - row.floor).toFixed(1)} |`,
      );
    }
  }
  return lines.join('\n');
}
