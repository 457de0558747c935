export { journalPlugin, JOURNAL_PERMISSIONS } from './plugin.ts';
export { seedJournalBenchmark, type JournalBenchmarkOptions, type JournalBenchmarkResult } from './demo.ts';
export { seedJournalDemo, type JournalDemoOptions, type JournalDemoResult } from './demo.ts';
