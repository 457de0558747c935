import type { ControllerConfig } from '../controllers/types.ts';

/** A permission a plugin offers; `label` and `tab` are string keys (or plain text). */
export interface PermissionDefinition {
  code: string;
  label: string;
  tab?: string;
  order?: number;
}

/** A navigation entry; `label` is a string key. Entries a principal may not open are dropped. */
export interface NavigationDefinition {
  code: string;
  label: string;
  icon?: string;
  /** Controller address `{vendor}/{plugin}/{controller}` the entry opens; empty for a pure group. */
  controller?: string;
  order?: number;
  /** The principal needs any one of these (none: everyone signed in). */
  permissions?: string[];
  sideMenu?: NavigationDefinition[];
}

/** A controller: see `defineController` and docs/controllers.md. */
export type ControllerDefinition = ControllerConfig;

/** What every plugin route declares besides its handler. */
export interface PluginRouteBase {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** `backend` routes: the principal needs all of these. */
  permissions?: string[];
  body?: 'none' | 'json' | 'multipart';
  /** Multipart routes: the file field and its size limit (a larger file is a 422 on that field). */
  upload?: { field: string; maxBytes: number };
  /**
   * The route's operation in the admin's OpenAPI document (docs/openapi.md, "Plugin routes"):
   * without it the route is described as answering any JSON.
   */
  openapi?: PluginRouteOpenApi;
}

/** A JSON Schema as OpenAPI 3.0.3 writes it (plain data). */
export type PluginOpenApiSchema = { readonly [key: string]: unknown };

/**
 * What a plugin says about its route for the OpenAPI document, in OpenAPI 3.0.3's own terms. The
 * core adds what every route of its kind answers (401, 403, 422 and 500 in the error envelope),
 * the security of `auth`, and a multipart body of the `upload` field when `requestBody` is absent.
 */
export interface PluginRouteOpenApi {
  summary: string;
  description?: string;
  parameters?: ReadonlyArray<{
    name: string;
    in: 'path' | 'query' | 'header';
    required?: boolean;
    description?: string;
    schema: PluginOpenApiSchema;
  }>;
  requestBody?: {
    required?: boolean;
    description?: string;
    content: Readonly<Record<string, { schema: PluginOpenApiSchema }>>;
  };
  /** Success answers (and any other the handler builds itself), by status. */
  responses: Readonly<
    Record<
      string,
      {
        description: string;
        headers?: Readonly<Record<string, { description?: string; schema: PluginOpenApiSchema }>>;
        content?: Readonly<Record<string, { schema: PluginOpenApiSchema }>>;
      }
    >
  >;
  /** Statuses the handler answers with the error envelope (`Validation`, `NotFound`, …) besides the pipeline's. */
  errors?: readonly number[];
}

/**
 * A plugin route as the registry checks and keeps it. Its handler is opaque here: the handler
 * types (`PluginRouteDefinition`, plugins/define.ts) name the request context, which names the
 * services, which hold the registry; the dispatch runs the route with them (http/dispatch.ts).
 */
export interface PluginRouteDeclaration extends PluginRouteBase {
  auth: 'public' | 'backend';
  handler: (...args: never[]) => unknown;
}

/** A plugin's code, `{vendor}.{name}`: its strings namespace and what refusals name. */
export const pluginCode = (plugin: { readonly vendor: string; readonly name: string }): string => `${plugin.vendor}.${plugin.name}`;
