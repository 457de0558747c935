import { readFile } from 'node:fs/promises';

/** The parts of a V8 `.cpuprofile` (written by `node --cpu-prof`) that the summary reads. */
interface CpuProfile {
  nodes: Array<{ id: number; children?: number[]; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a package, a workspace package, Node itself, or V8's own buckets. */
function owner(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node (internal)';
  const workspace = /\/(packages|examples)\/([^/]+)\/(src|bench)\//.exec(url);
  if (workspace) return `${workspace[1] === 'packages' ? '@cms/' : 'example '}${workspace[2]}`;
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + '/node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  return url;
}

export interface ProfileSummary {
  totalMs: number;
  byOwner: Array<{ name: string; ms: number }>;
  byFunction: Array<{ name: string; ms: number }>;
  /** Time per step of a request (`STEPS`), in the order of the table. */
  bySteps: Array<{ name: string; ms: number }>;
}

/**
 * The steps of an admin request (docs/performance.md, "Where the time goes"), each recognized by
 * a frame of the stack (`function url`). A sample counts for the innermost step on its stack
 * (a socket write under the PostgreSQL driver is the driver's, under Node's HTTP response the
 * response's), except that a `whole` step owns everything it calls (the session check's round
 * trip on the listening connection is the session check's, not the driver's). What matches none
 * is "other".
 */
const STEPS: Array<{ name: string; frame: RegExp; whole?: boolean }> = [
  { name: 'unseal the token', frame: /\/auth\/tokens\.ts/, whole: true },
  {
    name: 'session cache and fence',
    frame: /\/auth\/session-cache\.ts|\/database\/notifications\.ts|^authenticate .*\/auth\/service\.ts/,
    whole: true,
  },
  { name: 'permissions and actions', frame: /\/auth\/permission|\/permissions\/|\/behaviors\/actions\/|^recordActionsFor /, whole: true },
  { name: 'version digest (ETag)', frame: /\/behaviors\/form\/version\.ts|\/http\/versions\.ts/, whole: true },
  { name: 'statement: PostgreSQL driver', frame: /\/node_modules\/(pg|pg-pool|pg-protocol|kysely)\// },
  { name: 'statement: SQL and ORM', frame: /\/node_modules\/@mikro-orm\/|^readRecord |\/database\/prepared\.ts/ },
  { name: 'encode the record', frame: /^encodeRecord |\/fields\// },
  { name: 'the answer as JSON', frame: /^json .*\/http\/dispatch\.ts/, whole: true },
  { name: 'parameter checks', frame: /\/node_modules\/ajv|\/http\/validate\.ts/ },
  { name: 'routing', frame: /\/http\/match\.ts|^compilePath / },
  { name: 'admin pipeline', frame: /\/packages\/admin-core\/src\/(http|context|strings)\/|\/packages\/admin-koa\// },
  {
    name: 'Koa',
    frame: /\/node_modules\/(koa|koa-compose|@koa\/router|delegates|on-finished|statuses|content-type|vary|accepts|negotiator)\//,
  },
  { name: 'Node HTTP (parse, write)', frame: /^[^ ]* node:_http_/ },
  { name: 'garbage collector', frame: /^\(garbage collector\)/ },
];

const frameText = (frame: { functionName: string; url: string }) => `${frame.functionName || '(anonymous)'} ${frame.url}`;

/** Self time per owner and per function of a `.cpuprofile` file (idle time left out). */
export async function summarizeProfile(file: string): Promise<ProfileSummary> {
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let totalMs = 0;
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  // The step of each node, found once: the innermost step on its stack, unless a step that
  // owns its callees (`whole`) is on the stack.
  const stepOf = new Map<number, { inner: string; whole?: string }>();
  const stepsOf = (id: number): { inner: string; whole?: string } => {
    const known = stepOf.get(id);
    if (known !== undefined) return known;
    const frame = frames.get(id);
    const own = frame ? STEPS.find((s) => s.frame.test(frameText(frame))) : undefined;
    const parent = parents.get(id);
    const above = parent === undefined ? { inner: 'other' } : stepsOf(parent);
    const found = { inner: own?.name ?? above.inner, whole: above.whole ?? (own?.whole ? own.name : undefined) };
    stepOf.set(id, found);
    return found;
  };
  const step = (id: number) => {
    const found = stepsOf(id);
    return found.whole ?? found.inner;
  };
  const bySteps = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const frame = frames.get(id);
    if (!frame || frame.functionName === '(idle)') return;
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const who = owner(frame.url, frame.functionName);
    const where = frame.url ? `${frame.url.replace(/^.*\/(node_modules|packages|examples)\//, '$1/')}:${frame.lineNumber + 1}` : '';
    totalMs += ms;
    byOwner.set(who, (byOwner.get(who) ?? 0) + ms);
    const name = `${frame.functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    const stepName = step(id);
    bySteps.set(stepName, (bySteps.get(stepName) ?? 0) + ms);
  });
  const top = (map: Map<string, number>, count: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, ms]) => ({ name, ms }));
  const steps = [...STEPS.map((s) => s.name), 'other'].map((name) => ({ name, ms: bySteps.get(name) ?? 0 }));
  return { totalMs, byOwner: top(byOwner, 15), byFunction: top(byFunction, 25), bySteps: steps };
}

export function formatProfile(title: string, summary: ProfileSummary, requests?: number): string {
  const pct = (ms: number) => `${((100 * ms) / summary.totalMs).toFixed(1).padStart(5)} %`;
  const perRequest = (ms: number) => (requests ? `  ${((1000 * ms) / requests).toFixed(0).padStart(5)} µs/req` : '');
  return [
    `${title}: where the time goes, by step of the request (innermost step on the stack).`,
    ...summary.bySteps.map((row) => `  ${pct(row.ms)}${perRequest(row.ms)}  ${row.name}`),
    `${title}: ${(summary.totalMs / 1000).toFixed(1)} s not idle, self time by code owner.`,
    '(Sampled wall time: time the process waits for a core, often right after a socket write woke',
    'PostgreSQL, is counted in the function it was in, so native writes look larger than their CPU.)',
    ...summary.byOwner.map((row) => `  ${pct(row.ms)}  ${row.name}`),
    'Hottest functions (self time):',
    ...summary.byFunction.map((row) => `  ${pct(row.ms)}  ${row.name}`),
  ].join('\n');
}
