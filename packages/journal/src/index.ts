export { createJournalPlugin, journalPlugin, JOURNAL_PERMISSIONS } from './plugin.ts';
export type { JournalOptions } from './options.ts';
export {
  JOURNAL_BENCHMARK_RARE_WORD,
  JOURNAL_BENCHMARK_VERSION,
  seedJournalBenchmark,
  type JournalBenchmarkOptions,
  type JournalBenchmarkResult,
} from './demo.ts';
export { seedJournalDemo, type JournalDemoOptions, type JournalDemoResult } from './demo.ts';
