import { formField, formMessages, type SchemaContext } from '../behaviors/schema/schema.ts';
import type { OperationContext } from '../context/operation.ts';
import { ok } from '../http/envelope.ts';
import { ifMatchCondition } from '../http/versions.ts';
import type { AdminResponse, AuthedRequest, RouteDefinition } from '../http/types.ts';
import type { RegisteredSettings, SettingsAnswer, SettingsEntry } from './types.ts';
import { saveSettings } from './write.ts';
import { anyValue, arrayOf, exact, mapOf, object, string } from '../schema/json.ts';
import { error412 } from '../openapi/components.ts';
import { answer as describedAnswer, headerParam, jsonBody, namedParam, ok as described, type SchemaComponents } from '../schema/route.ts';
import { ref, type Schema } from '../schema/types.ts';

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
 * asset lists as the spec's FormView of a settings form has them (other plugin field types are
 * refused on settings forms; the application loads the core's yes/no elements from `GET
 * /field-types`: docs/settings.md), the standard form messages, and redirects back to the settings page.
 */
function settingsFormView(entry: RegisteredSettings, ctx: OperationContext) {
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
  ...(result.meta.etag === undefined ? {} : { headers: { ETag: result.meta.etag } }),
  body: { data: result.data, exists: result.exists, meta: result.meta },
});

/** The one gate of every `/settings/{code}` route: 404 for an unknown code or a link entry, then 403. */
const formEntry = (req: AuthedRequest, ctx: OperationContext) => ctx.services.settings.formEntry(req.params.code ?? '', ctx.principal);

/**
 * `/settings` (the entries the principal may use), `/settings/{code}` (GET, PUT) and its schema.
 * Every route checks the entry's permissions in `SettingsService.formEntry`, the one gate, before
 * reading or writing anything: 404 for an unknown code or a link entry, then 403.
 */
/** A settings answer: SettingsResult and the envelope's `meta` in one body (docs/settings.md). */
const SETTINGS_DATA = mapOf(anyValue(), { description: 'Field values by name, encoded by their types; never a secret.' });
const SETTINGS_EXISTS: Schema = { type: 'boolean' };
const SETTINGS_META = object(
  {
    secrets: mapOf(string({ enum: ['stored', 'env', 'empty'] }), { description: 'The state of each password field.' }),
    notices: arrayOf(ref('FieldNotice')),
    etag: string({ description: 'The version of the stored values, also the `ETag` header.' }),
  },
  ['secrets'],
);
const SETTINGS_RESULT: Schema = exact({ data: SETTINGS_DATA, exists: SETTINGS_EXISTS, meta: SETTINGS_META });
/** The 412 of a save sent with a stale `If-Match`: the error beside the current SettingsResult. */
const SETTINGS_STALE: Schema = error412(SETTINGS_DATA, SETTINGS_META, { exists: SETTINGS_EXISTS });
/** The version of the values (docs/settings.md, "Versions and If-Match"), as record answers name it. */
const ETAG = { ETag: { $ref: '#/components/headers/ETag' } };

/** `{code}`: a settings form (a link entry or an unknown code is a 404). */
const codeParam = (components: SchemaComponents) => namedParam('code', 'A settings form.', components.settingsCodes);

export const settingsRoutes: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/settings',
    handler: (_req, ctx) => ok(settingsEntries(ctx)),
    schema: {
      id: 'settings',
      summary: 'The settings entries of the signed-in admin',
      success: described('Entries, ordered.', arrayOf(ref('SettingsEntry'))),
    },
  },
  {
    method: 'GET',
    path: '/settings/:code',
    handler: async (req, ctx) => answer(await ctx.services.settings.read(formEntry(req, ctx), ctx.em())),
    schema: (components) => ({
      id: 'settings.read',
      summary: 'The values of a settings form',
      parameters: [codeParam(components)],
      success: { 200: describedAnswer('Values; secrets only as states.', SETTINGS_RESULT, ETAG) },
      errors: [403, 404],
    }),
  },
  {
    method: 'PUT',
    path: '/settings/:code',
    body: 'json',
    handler: async (req, ctx) => {
      const entry = formEntry(req, ctx);
      return answer(await saveSettings(entry, req.body, ctx, ifMatchCondition(req.headers['if-match'], ctx)));
    },
    // Values are decoded by their field types (secrets, uploads): the pipeline checks only that the body is an object.
    schema: (components) => ({
      ...{
        id: 'settings.save',
        summary: 'Save a settings form',
        description: 'A password field: absent or `""` keeps the stored secret, null clears it.',
        parameters: [codeParam(components), headerParam('If-Match', '`*` or entity tags: a stale version is 412 and nothing is written.')],
        body: jsonBody(mapOf(anyValue(), { description: 'Values by field name.' })),
        success: { 200: describedAnswer('The saved values; never a secret.', SETTINGS_RESULT, ETAG) },
        errors: [403, 404],
        errorResponses: {
          412: describedAnswer(
            'The values changed since the `If-Match` version: the current values beside the error.',
            SETTINGS_STALE,
            ETAG,
          ),
        },
      },
      handlerDecodesBody: true,
    }),
  },
  {
    method: 'GET',
    path: '/settings/:code/schema',
    handler: (req, ctx) => ok(settingsFormView(formEntry(req, ctx), ctx)),
    schema: (components) => ({
      id: 'settings.schema',
      summary: 'The form of a settings entry',
      parameters: [codeParam(components)],
      success: described('The FormView.', ref('FormView')),
      errors: [403, 404],
    }),
  },
];
