import type { ResolvedController } from '../controllers/resolve.ts';
import type { FieldType } from '../fields/types.ts';
import { pluginFieldTypeOf } from '../fields/plugin/field-type.ts';
import { bodyKindOf, type RouteDefinition } from '../http/types.ts';
import { SESSION_COOKIE } from '../http/cookies.ts';
import { error422, sharedHeaders, sharedResponses, sharedSchemas } from './components.ts';
import { answer, jsonBody, multipartBody, type RouteSchema } from '../schema/route.ts';
import type { PluginRouteOpenApi } from '../plugins/types.ts';
import { anyValue } from '../schema/json.ts';
import type { OpenApiDocument, Operation, PathItem, Response } from './types.ts';

/** What the document is built from, once at start-up (docs/openapi.md). */
export interface OpenApiInput {
  locales: readonly string[];
  themes: readonly string[];
  /** Codes of the settings forms (link entries have no `/settings/{code}` route: 404). */
  settingsCodes: readonly string[];
  /** `{prefix}/api/v1`: the server the paths are relative to. */
  apiBase: string;
  /** The route table (`AdminCore.routes`): every route gets an operation. */
  routes: readonly RouteDefinition[];
  controllers: ReadonlyMap<string, ResolvedController>;
  /** Built-in and plugin field types: the plugins' declared error codes join the 422's. */
  fieldTypes: ReadonlyMap<string, FieldType>;
  /** The plugins' routes outside the admin prefix, as the pipeline runs them, with their own descriptions. */
  pluginRoutes?: readonly PluginRouteInput[];
}

interface PluginRouteInput {
  route: RouteDefinition;
  /** The plugin's code (`acme.blog`): the operation's tag. */
  plugin: string;
  openapi?: PluginRouteOpenApi;
}

/** The server of a plugin route: the host's root, where its absolute path starts. */
const HOST_ROOT = [{ url: '/', description: 'The host application: this plugin route is outside the admin API.' }];

export interface BuiltDocument {
  document: OpenApiDocument;
  /** Routes no describer knew (`METHOD path`): they got a generic operation. Empty for every route the core makes. */
  undescribed: string[];
  /** Each admin route's description as the document has it: what `http/validate.ts` compiles. */
  described: ReadonlyMap<RouteDefinition, RouteSchema>;
}

type Method = 'get' | 'post' | 'put' | 'delete';

/** `/a/:id/b` → `/a/{id}/b`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z_$][\w$]*)/g, '{$1}');

/** The controller a route belongs to: the longest address its path starts with. */
function controllerOf(route: RouteDefinition, controllers: ReadonlyMap<string, ResolvedController>): ResolvedController | undefined {
  let found: ResolvedController | undefined;
  for (const controller of controllers.values()) {
    const base = `/${controller.address}`;
    if ((route.path === base || route.path.startsWith(`${base}/`)) && (!found || controller.address.length > found.address.length))
      found = controller;
  }
  return found;
}

/** A route no describer knows: any JSON in, the envelope of any JSON out. */
function generic(route: RouteDefinition): RouteSchema {
  const kind = bodyKindOf(route, route.method);
  return {
    id: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+/g, '.')}`,
    summary: `${route.method} ${route.path}`,
    ...(kind === 'json' ? { body: jsonBody(anyValue(), false) } : {}),
    success: { 200: answer('The answer.', anyValue()) },
    errors: [403, 404, 409],
  };
}

/**
 * A plugin route's operation: its own description in OpenAPI's terms, or any JSON when it gave
 * none; the upload field as a multipart body when it described no body.
 */
function pluginDraft({ route, openapi }: PluginRouteInput): RouteSchema {
  const fallback = generic(route);
  const body = route.upload ? multipartBody(route.upload.field, route.upload.maxBytes, 'The uploaded file.') : undefined;
  if (!openapi) return { ...fallback, ...(body ? { body } : {}) };
  return {
    id: fallback.id,
    summary: openapi.summary,
    description: openapi.description,
    parameters: openapi.parameters?.map((parameter) => ({ ...parameter })),
    body: openapi.requestBody ? (structuredClone(openapi.requestBody) as RouteSchema['body']) : body,
    success: structuredClone(openapi.responses) as RouteSchema['success'],
    errors: [...(openapi.errors ?? [])],
  };
}

/**
 * The statuses every route of its kind may answer besides its handler's (http/pipeline.ts): 401
 * without a valid principal; 403 for a missing permission, a cookie write without
 * `X-Requested-With`, a personal API token on an interactive route; 422 for an undeclared query
 * parameter or a malformed body; 409 `transient_conflict` on every write (a deadlock that outlasted
 * the retries, docs/errors.md "Transient conflicts"); 500.
 */
function pipelineStatuses(route: RouteDefinition): number[] {
  const statuses = [...(route.method === 'GET' ? [] : [409]), 422, 500];
  if (route.auth === 'public') return route.requireXhr ? [403, ...statuses] : statuses;
  const forbidden = route.requireXhr || route.method !== 'GET' || route.interactive === true || (route.permissions?.length ?? 0) > 0;
  return [401, ...(forbidden ? [403] : []), ...statuses];
}

function toOperation(route: RouteDefinition, draft: RouteSchema, tag: string): Operation {
  const responses: Operation['responses'] = { ...draft.success };
  const statuses = new Set([...pipelineStatuses(route), ...(draft.errors ?? [])]);
  for (const status of [...statuses].sort((a, b) => a - b)) responses[String(status)] = { $ref: `#/components/responses/Error${status}` };
  for (const [status, response] of Object.entries(draft.errorResponses ?? {})) responses[status] = response as Response;
  const notes = [
    draft.description,
    route.auth !== 'public' && route.interactive
      ? 'Interactive sessions only: a personal API token is refused (403 `interactive_only`).'
      : undefined,
    route.auth !== 'public' && route.permissions?.length
      ? `Needs the permissions ${route.permissions.map((p) => `\`${p}\``).join(', ')}.`
      : undefined,
  ].filter(Boolean);
  return {
    operationId: draft.id,
    summary: draft.summary,
    ...(notes.length ? { description: notes.join(' ') } : {}),
    tags: [tag],
    ...(draft.parameters?.length ? { parameters: draft.parameters } : {}),
    ...(draft.body ? { requestBody: draft.body } : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))),
    ...(route.auth === 'public' ? { security: [] } : {}),
  };
}

/**
 * Builds the OpenAPI 3.0.3 description of this admin as configured (docs/openapi.md): one
 * operation per route of the route table, with the concrete schemas of each controller.
 */
export function buildOpenApiDocument(input: OpenApiInput): BuiltDocument {
  const schemas = sharedSchemas();
  const pluginCodes = [...new Set([...input.fieldTypes.values()].flatMap((type) => pluginFieldTypeOf(type)?.errorCodes ?? []))].sort();
  if (pluginCodes.length) schemas.Error422 = error422(pluginCodes);
  const registry = { locales: input.locales, themes: input.themes, settingsCodes: input.settingsCodes, schemas };
  const paths: Record<string, PathItem> = {};
  const tags = new Map<string, string | undefined>();
  const undescribed: string[] = [];
  const ids = new Set<string>();
  const described = new Map<RouteDefinition, RouteSchema>();

  for (const route of input.routes) {
    const controller = controllerOf(route, input.controllers);
    const tag = controller ? controller.address : (route.path.split('/')[1] ?? 'api');
    // The route's own description, made here in route order so that the components it registers
    // keep their order in the document (docs/openapi.md, "The baseline").
    const own = typeof route.schema === 'function' ? route.schema(registry) : route.schema;
    let draft = own;
    if (!draft) {
      undescribed.push(`${route.method} ${route.path}`);
      draft = generic(route);
    }
    let id = draft.id;
    for (let n = 2; ids.has(id); n++) id = `${draft.id}.${n}`;
    ids.add(id);
    described.set(route, draft);
    tags.set(tag, controller ? `The routes of the controller ${controller.address}.` : undefined);
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase() as Method] = toOperation(route, { ...draft, id }, tag);
  }

  for (const plugin of input.pluginRoutes ?? []) {
    const { route } = plugin;
    const path = openApiPath(route.path);
    // The API's paths are relative to its base: a plugin path equal to one of them cannot share its key.
    if (paths[path] && !paths[path].servers) {
      undescribed.push(`${route.method} ${route.path}`);
      continue;
    }
    const draft = pluginDraft(plugin);
    let id = draft.id;
    for (let n = 2; ids.has(id); n++) id = `${draft.id}.${n}`;
    ids.add(id);
    tags.set(plugin.plugin, `The routes of the plugin ${plugin.plugin} outside the admin API.`);
    paths[path] ??= { servers: HOST_ROOT };
    paths[path][route.method.toLowerCase() as Method] = toOperation(route, { ...draft, id }, plugin.plugin);
  }

  return {
    document: {
      openapi: '3.0.3',
      info: {
        title: 'Admin API',
        version: '1',
        description:
          'The administration API of this admin as configured: the core routes and every registered controller\u2019s routes. Success answers are `{data, meta}`; errors are `{error: {code, message, details}}`.',
      },
      servers: [{ url: input.apiBase, description: 'The admin API below the admin prefix.' }],
      tags: [...tags].map(([name, description]) => ({ name, ...(description ? { description } : {}) })),
      security: [{ bearer: [] }, { cookie: [] }],
      paths,
      components: {
        schemas,
        responses: sharedResponses(),
        headers: sharedHeaders(),
        parameters: {},
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'An access token from `POST /auth/login` (without `X-Requested-With`), or a personal API token.',
          },
          cookie: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description:
              'The session cookie a login with `X-Requested-With` sets. Every POST, PUT and DELETE on this transport must send the `X-Requested-With` header (any non-empty value, for example `XMLHttpRequest`), else 403 `xhr_required`.',
          },
        },
      },
    },
    undescribed,
    described,
  };
}
