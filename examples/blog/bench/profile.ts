import { readFile } from 'node:fs/promises';

/** The parts of a V8 `.cpuprofile` (written by `node --cpu-prof`) that the summary reads. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
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
}

/** Self time per owner and per function of a `.cpuprofile` file (idle time left out). */
export async function summarizeProfile(file: string): Promise<ProfileSummary> {
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let totalMs = 0;
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
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
  });
  const top = (map: Map<string, number>, count: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, ms]) => ({ name, ms }));
  return { totalMs, byOwner: top(byOwner, 15), byFunction: top(byFunction, 25) };
}

export function formatProfile(title: string, summary: ProfileSummary): string {
  const pct = (ms: number) => `${((100 * ms) / summary.totalMs).toFixed(1).padStart(5)} %`;
  return [
    `${title}: ${(summary.totalMs / 1000).toFixed(1)} s not idle, self time by code owner.`,
    '(Sampled wall time: time the process waits for a core, often right after a socket write woke',
    'PostgreSQL, is counted in the function it was in, so native writes look larger than their CPU.)',
    ...summary.byOwner.map((row) => `  ${pct(row.ms)}  ${row.name}`),
    'Hottest functions (self time):',
    ...summary.byFunction.map((row) => `  ${pct(row.ms)}  ${row.name}`),
  ].join('\n');
}
