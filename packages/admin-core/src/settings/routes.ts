import { formField, formMessages, type SchemaContext } from '../behaviors/schema/schema.ts';
import type { OperationContext } from '../context/operation.ts';
import { ok } from '../http/envelope.ts';
import type { AdminResponse, AuthedRequest, RouteDefinition } from '../http/types.ts';
import type { RegisteredSettings, SettingsAnswer, SettingsEntry } from './types.ts';
import { saveSettings } from './write.ts';

/** Where an entry without `order` sits (as navigation entries do). */
const DEFAULT_ORDER = 500;
const DEFAULT_CATEGORY = 'backend::settings.category.misc';

/** One SettingsEntry (docs/settings.md), localized. */
function settingsEntry(entry: RegisteredSettings, ctx: OperationContext): SettingsEntry {
  const t = (key: string) => ctx.t(key);
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

/** The entries the principal may use (docs/settings.md), ordered by `order`, then `code`. */
export function settingsEntries(ctx: OperationContext): SettingsEntry[] {
  const { settings } = ctx.services;
  return [...settings.entries.values()]
    .filter((entry) => settings.mayUse(ctx.principal, entry))
    .map((entry) => settingsEntry(entry, ctx))
    .sort((a, b) => a.order - b.order || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

/**
 * FormView (docs/controllers.md) of a settings form: the fields as a controller form serves them, empty
 * asset lists (plugin field types are refused on settings forms), the standard form messages, and
 * redirects back to the settings page.
 */
export function settingsFormView(entry: RegisteredSettings, ctx: OperationContext) {
  const { strings, registry } = ctx.services;
  const { locale } = ctx;
  const schema: SchemaContext = { strings, locale, principal: ctx.principal, permissions: registry.permissions, services: ctx.services };
  const page = `settings/${entry.code}`;
  return {
    fields: [...entry.fields.values()].map((field) => formField(field, schema)),
    assets: { scripts: [] as string[], styles: [] as string[] },
    messages: formMessages(strings, locale),
    meta: { locale },
    redirects: {
      create: { redirect: page, redirectClose: 'settings' },
      update: { redirect: page, redirectClose: 'settings' },
      default: 'settings',
    },
    name: ctx.t(entry.definition.label),
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

/** The one gate of every `/settings/{code}` route: 404 for an unknown code or a link entry, then 403. */
const formEntry = (req: AuthedRequest, ctx: OperationContext) => ctx.services.settings.formEntry(req.params.code ?? '', ctx.principal);

/**
 * `/settings` (the entries the principal may use), `/settings/{code}` (GET, PUT) and its schema.
 * Every route checks the entry's permissions in `SettingsService.formEntry`, the one gate, before
 * reading or writing anything: 404 for an unknown code or a link entry, then 403.
 */
export const settingsRoutes: RouteDefinition[] = [
  { method: 'GET', path: '/settings', handler: (_req, ctx) => ok(settingsEntries(ctx)) },
  {
    method: 'GET',
    path: '/settings/:code',
    handler: async (req, ctx) => answer(await ctx.services.settings.read(formEntry(req, ctx), ctx.em())),
  },
  {
    method: 'PUT',
    path: '/settings/:code',
    body: 'json',
    handler: async (req, ctx) => answer(await saveSettings(formEntry(req, ctx), req.body, ctx)),
  },
  { method: 'GET', path: '/settings/:code/schema', handler: (req, ctx) => ok(settingsFormView(formEntry(req, ctx), ctx)) },
];
