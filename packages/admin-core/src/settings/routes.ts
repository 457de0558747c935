import type { Principal } from '../auth/principal.ts';
import type { AdminCore } from '../core.ts';
import { formField, formMessages } from '../behaviors/schema/schema.ts';
import { ok } from '../http/envelope.ts';
import type { AdminRequest, AdminResponse, RouteDefinition } from '../http/types.ts';
import type { RegisteredSettings, SettingsAnswer, SettingsEntry } from './types.ts';

/** Where an entry without `order` sits (as navigation entries do). */
const DEFAULT_ORDER = 500;
const DEFAULT_CATEGORY = 'backend::settings.category.misc';

/** One SettingsEntry (spec 2.3), localized. */
function settingsEntry(core: AdminCore, entry: RegisteredSettings, locale: string): SettingsEntry {
  const t = (key: string) => core.strings.t(locale, key);
  const definition = entry.definition;
  return {
    category: t(definition.category ?? DEFAULT_CATEGORY),
    code: entry.code,
    controller: entry.controller,
    description: definition.description ? t(definition.description) : '',
    icon: definition.icon ?? '',
    keywords: (definition.keywords ?? []).map(t),
    label: t(definition.label),
    model: entry.model,
    order: definition.order ?? DEFAULT_ORDER,
  };
}

/** The entries the principal may use (spec 5.9), ordered by `order`, then `code`. */
export function settingsEntries(core: AdminCore, principal: Principal, locale: string): SettingsEntry[] {
  return [...core.settings.entries.values()]
    .filter((entry) => core.settings.mayUse(principal, entry))
    .map((entry) => settingsEntry(core, entry, locale))
    .sort((a, b) => a.order - b.order || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

/**
 * FormView (spec 2.5) of a settings form: the fields as a controller form serves them, empty
 * asset lists (plugin field types are refused on settings forms), the standard form messages, and
 * redirects back to the settings page.
 */
export function settingsFormView(core: AdminCore, entry: RegisteredSettings, req: Pick<AdminRequest, 'locale' | 'principal'>) {
  const { locale } = req;
  const ctx = { strings: core.strings, locale, principal: req.principal, permissions: core.registry.permissions, core };
  const page = `settings/${entry.code}`;
  return {
    fields: [...entry.fields.values()].map((field) => formField(field, ctx)),
    assets: { scripts: [] as string[], styles: [] as string[] },
    messages: formMessages(core.strings, locale),
    meta: { locale },
    redirects: {
      create: { redirect: page, redirectClose: 'settings' },
      update: { redirect: page, redirectClose: 'settings' },
      default: 'settings',
    },
    name: core.strings.t(locale, entry.definition.label),
    modelClass: entry.model,
  };
}

/**
 * The body is a SettingsResult (`data`, `exists`) that is also a success envelope (`data`, `meta`):
 * `{data: values, exists, meta: {secrets, notices?}}`.
 */
const answer = (result: SettingsAnswer): AdminResponse => ({
  status: 200,
  body: { data: result.data, exists: result.exists, meta: result.meta },
});

/**
 * `/settings` (the entries the principal may use), `/settings/{code}` (GET, PUT) and its schema.
 * Every route checks the entry's permissions in `SettingsService.formEntry`, the one gate, before
 * reading or writing anything: 404 for an unknown code or a link entry, then 403.
 */
export const settingsRoutes: RouteDefinition[] = [
  { method: 'GET', path: '/settings', handler: (req, core) => ok(settingsEntries(core, req.principal!, req.locale)) },
  {
    method: 'GET',
    path: '/settings/:code',
    handler: async (req, core) => answer(await core.settings.read(core.settings.formEntry(req.params.code!, req.principal!))),
  },
  {
    method: 'PUT',
    path: '/settings/:code',
    body: 'json',
    handler: async (req, core) => {
      const entry = core.settings.formEntry(req.params.code!, req.principal!);
      return answer(await core.settings.save(entry, req.body, req.principal!, req.locale));
    },
  },
  {
    method: 'GET',
    path: '/settings/:code/schema',
    handler: (req, core) => ok(settingsFormView(core, core.settings.formEntry(req.params.code!, req.principal!), req)),
  },
];
