import { defineStrings, type SettingsDefinition } from '@cms/admin-core';
import { JOURNAL_PERMISSIONS } from './permissions.ts';
import { hostRefusal, PUBLIC_ADDRESSES_ONLY, type AddressPolicy } from './search/address.ts';

/** The settings' strings, with typed keys (docs/strings.md, "Typed keys"): `s('settings.lable')` does not compile. */
const strings = defineStrings('cms.journal', {
  en: {
    'settings.label': 'Journal',
    'settings.description': 'RSS feed and search engine of the journal.',
    'settings.category': 'Content',
    'settings.keywords.rss': 'rss',
    'settings.keywords.search': 'search',
    'settings.tabs.rss': 'RSS feed',
    'settings.tabs.search': 'Search',
    'settings.fields.rss_title': 'Feed title',
    'settings.fields.rss_description': 'Feed description',
    'settings.fields.rss_link': 'Site address',
    'settings.fields.rss_link_comment':
      'The address of the blog: the feed links to it and to each post at this address followed by the post’s slug. Empty: the address the feed was requested at.',
    'settings.fields.rss_limit': 'Posts in the feed',
    'settings.fields.rss_limit_comment': 'How many of the newest published posts the feed lists (1 to 100).',
    'settings.fields.search_use_typesense': 'Index posts in Typesense',
    'settings.fields.search_use_typesense_comment': 'While this is off, saving a post never calls the search engine.',
    'settings.fields.typesense_url': 'Typesense URL',
    'settings.typesense_url.invalid': 'Enter an http or https URL, for example https://search.example.com.',
    'settings.typesense_url.never':
      'This address is link-local, a cloud metadata service, unspecified or reserved: the journal never sends requests there.',
    'settings.typesense_url.private':
      'This address is on the server itself or on a private network: the host has not allowed the journal to reach such addresses.',
    'settings.typesense_url.unresolved': 'The host name of this URL could not be resolved.',
    'settings.fields.typesense_api_key': 'Typesense API key',
    'settings.fields.typesense_api_key_comment':
      'Stored encrypted and never shown again. The TYPESENSE_API_KEY environment variable, when set, is used instead.',
  },
  de: {
    'settings.label': 'Journal',
    'settings.description': 'RSS-Feed und Suchmaschine des Journals.',
    'settings.category': 'Inhalte',
    'settings.keywords.rss': 'RSS',
    'settings.keywords.search': 'Suche',
    'settings.tabs.rss': 'RSS-Feed',
    'settings.tabs.search': 'Suche',
    'settings.fields.rss_title': 'Feed-Titel',
    'settings.fields.rss_description': 'Feed-Beschreibung',
    'settings.fields.rss_link': 'Adresse der Website',
    'settings.fields.rss_link_comment':
      'Die Adresse des Blogs: Der Feed verlinkt auf sie und auf jeden Beitrag unter dieser Adresse gefolgt von seinem Kurznamen. Leer: die Adresse, unter der der Feed abgerufen wurde.',
    'settings.fields.rss_limit': 'Beiträge im Feed',
    'settings.fields.rss_limit_comment': 'Wie viele der neuesten veröffentlichten Beiträge der Feed enthält (1 bis 100).',
    'settings.fields.search_use_typesense': 'Beiträge in Typesense indexieren',
    'settings.fields.search_use_typesense_comment': 'Solange dies aus ist, ruft das Speichern eines Beitrags die Suchmaschine nie auf.',
    'settings.fields.typesense_url': 'Typesense-URL',
    'settings.typesense_url.invalid': 'Geben Sie eine http- oder https-URL ein, zum Beispiel https://search.example.com.',
    'settings.typesense_url.never':
      'Diese Adresse ist link-lokal, ein Metadatendienst einer Cloud, unbestimmt oder reserviert: Das Journal sendet nie Anfragen dorthin.',
    'settings.typesense_url.private':
      'Diese Adresse liegt auf dem Server selbst oder in einem privaten Netz: Der Betreiber hat dem Journal solche Adressen nicht erlaubt.',
    'settings.typesense_url.unresolved': 'Der Hostname dieser URL konnte nicht aufgelöst werden.',
    'settings.fields.typesense_api_key': 'Typesense-API-Schlüssel',
    'settings.fields.typesense_api_key_comment':
      'Wird verschlüsselt gespeichert und nie wieder angezeigt. Ist die Umgebungsvariable TYPESENSE_API_KEY gesetzt, wird sie stattdessen verwendet.',
  },
});
const { s } = strings;
/** The settings' table, merged into the plugin's by `plugin.ts`. */
export const settingsStrings = strings.table;
/** The refusals of `typesense_url`, keys only code uses (docs/strings.md, "Checked at start-up"). */
export const settingsCodeStrings = [
  s('settings.typesense_url.invalid'),
  s('settings.typesense_url.never'),
  s('settings.typesense_url.private'),
  s('settings.typesense_url.unresolved'),
];

/** The settings code of the journal (`/settings/journal`); plugin code reads it with `core.settings.values(JOURNAL_SETTINGS)`. */
export const JOURNAL_SETTINGS = 'journal';

/**
 * The `journal` settings (docs/settings.md): the RSS feed's title, description, site link and
 * length (docs/journal.md, "RSS feed"), and the search-engine gate. `search_use_typesense` is a
 * `switch` (the core's yes/no type; docs/field-types.md, "switch and checkbox"): it stores a JSON
 * boolean, default `false` (the gate is off until an admin turns it on). `typesense_api_key` is a password field, so a write-only secret sealed at rest; a host
 * supplies it from `TYPESENSE_API_KEY` through `settings.env.journal` (state `env`).
 * `typesense_url` is checked on save against
 * the host's address policy (docs/journal.md, "The engine's address").
 */
export const journalSettingsFor = (policy: AddressPolicy): Record<string, SettingsDefinition> => ({
  [JOURNAL_SETTINGS]: {
    label: s('settings.label'),
    description: s('settings.description'),
    category: s('settings.category'),
    icon: 'icon-pencil',
    keywords: [s('settings.keywords.rss'), s('settings.keywords.search')],
    order: 300,
    permissions: [JOURNAL_PERMISSIONS.accessSettings],
    form: {
      fields: {
        rss_title: {
          type: 'text',
          label: s('settings.fields.rss_title'),
          tab: s('settings.tabs.rss'),
          default: 'Journal',
        },
        rss_description: {
          type: 'textarea',
          label: s('settings.fields.rss_description'),
          tab: s('settings.tabs.rss'),
          default: '',
        },
        rss_link: {
          type: 'text',
          label: s('settings.fields.rss_link'),
          comment: s('settings.fields.rss_link_comment'),
          tab: s('settings.tabs.rss'),
          attributes: { placeholder: 'https://example.com/blog' },
        },
        rss_limit: {
          type: 'number',
          label: s('settings.fields.rss_limit'),
          comment: s('settings.fields.rss_limit_comment'),
          tab: s('settings.tabs.rss'),
          default: 20,
          // Enforced on save and served in the form (docs/field-types.md, "number").
          min: 1,
          max: 100,
          step: 1,
        },
        search_use_typesense: {
          type: 'switch',
          label: s('settings.fields.search_use_typesense'),
          comment: s('settings.fields.search_use_typesense_comment'),
          tab: s('settings.tabs.search'),
          default: false,
        },
        typesense_url: {
          type: 'text',
          label: s('settings.fields.typesense_url'),
          tab: s('settings.tabs.search'),
          attributes: { placeholder: 'https://search.example.com' },
          validate: (value) => typesenseUrlRefusal(value, policy),
        },
        typesense_api_key: {
          type: 'password',
          label: s('settings.fields.typesense_api_key'),
          comment: s('settings.fields.typesense_api_key_comment'),
          tab: s('settings.tabs.search'),
        },
      },
      // The stored key goes only to the server it was entered for: a new URL needs the key again.
      bindSecrets: { typesense_api_key: ['typesense_url'] },
    },
  },
});

/** The settings of the journal with the default policy (no loopback or private engine address). */
export const journalSettings = journalSettingsFor(PUBLIC_ADDRESSES_ONLY);

/**
 * Save-time check of `typesense_url` (docs/journal.md, "The engine's address"): empty, or an
 * http(s) URL whose host (an IP literal, or every address its name resolves to) the policy allows.
 * Answers the refusal's string key. Requests check the resolved address again.
 */
async function typesenseUrlRefusal(value: unknown, policy: AddressPolicy): Promise<string | undefined> {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return s('settings.typesense_url.invalid');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return s('settings.typesense_url.invalid');
  const refusal = await hostRefusal(url.hostname, policy);
  return refusal === undefined ? undefined : s(`settings.typesense_url.${refusal}`);
}
