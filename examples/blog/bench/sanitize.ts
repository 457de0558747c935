import { monitorEventLoopDelay } from 'node:perf_hooks';
import { cpus, release } from 'node:os';
// A micro-benchmark of the core's markup sanitizer (docs/performance.md, "Markup sanitizing"):
// it measures internals that the public surface does not export, hence the path into the sources.
import { runMarkupJob, sanitizeMarkup, type MarkupJob } from '../../../packages/admin-core/src/fields/sanitize.ts';

/**
 * `node examples/blog/bench/sanitize.ts`: how long the sanitizer takes for 1 MiB bodies, on this
 * thread and through the markup worker (with the longest event-loop delay meanwhile).
 */
const MIB = 1024 * 1024;
const fill = (piece: string, bytes: number) => piece.repeat(Math.floor(bytes / piece.length));

const cases: Array<{ name: string; job: MarkupJob }> = [
  {
    name: 'markdown, prose with some raw HTML',
    job: {
      kind: 'markdown',
      input: fill('A paragraph of *prose* with `code`, a [link](https://example.com) and <kbd>Ctrl</kbd>.\n\n', MIB),
    },
  },
  { name: 'markdown, 55,000 inline tags to clean', job: { kind: 'markdown', input: fill('<i onclick=x>a</i> ', MIB) } },
  {
    name: 'rich text, paragraphs',
    job: { kind: 'html', input: fill('<p>Some <b>bold</b> and <a href="https://example.com">a link</a>.</p>', MIB) },
  },
  { name: 'rich text, every element to clean', job: { kind: 'html', input: fill('<p onclick=x style="color:red">a</p>', MIB) } },
];

const RUNS = 5;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

console.log(`Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Linux ${release()}; median of ${RUNS} runs`);
console.log('| body (1 MiB) | on this thread, ms | through the worker, ms | longest event-loop delay, ms |');
console.log('| --- | ---: | ---: | ---: |');
for (const { name, job } of cases) {
  runMarkupJob(job); // warm-up
  const inline: number[] = [];
  const background: number[] = [];
  const delays: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    let start = performance.now();
    runMarkupJob(job);
    inline.push(performance.now() - start);
    const histogram = monitorEventLoopDelay({ resolution: 5 });
    histogram.enable();
    await new Promise((resolve) => setTimeout(resolve, 15));
    start = performance.now();
    await sanitizeMarkup(job);
    background.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 20));
    histogram.disable();
    delays.push(histogram.max / 1e6);
  }
  const row = [name, median(inline), median(background), median(delays)].map((v) => (typeof v === 'number' ? v.toFixed(0) : v));
  console.log(`| ${row.join(' | ')} |`);
}
