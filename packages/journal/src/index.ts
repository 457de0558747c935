export { journalPlugin, JOURNAL_PERMISSIONS } from './plugin.ts';
