import { createJournalPlugin, journalPlugin } from '@cms/journal';
import { catalogPlugin } from './catalog.ts';

/** The plugins the example app mounts, in order. */
export const plugins = [journalPlugin, catalogPlugin];

/**
 * The plugins as the app mounts them for its environment. A `TYPESENSE_URL` the host supplies
 * wins over the setting, so no admin can change it: the journal may then reach it on a private
 * address (a search engine beside the app, docs/journal.md, "The engine's address").
 */
export const pluginsFor = (options: { typesenseUrlFromHost: boolean }) =>
  options.typesenseUrlFromHost ? [createJournalPlugin({ typesense: { allowPrivateAddresses: true } }), catalogPlugin] : plugins;
