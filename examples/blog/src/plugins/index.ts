import { createJournalPlugin, journalPlugin } from '@cms/journal';
import { catalogPlugin } from './catalog.ts';

/** The plugins the example app mounts, in order. */
export const plugins = [journalPlugin, catalogPlugin];

/**
 * The plugins as the app mounts them for its environment (docs/journal.md, "The engine's
 * address"). The journal may reach its search engine on a loopback or private address when
 *
 * - the host supplies `TYPESENSE_URL`: it wins over the setting, so no admin can change it (a
 *   search engine beside the app);
 * - the app runs outside production (`production: false`, from `NODE_ENV`): a developer's own
 *   Typesense on `localhost:8108` can be tried from the settings form.
 *
 * In production without `TYPESENSE_URL` the journal's default stands: public addresses only.
 * Link-local and metadata addresses are refused in every mode.
 */
export const pluginsFor = (options: { typesenseUrlFromHost: boolean; production: boolean }) =>
  options.typesenseUrlFromHost || !options.production
    ? [createJournalPlugin({ typesense: { allowPrivateAddresses: true } }), catalogPlugin]
    : plugins;
