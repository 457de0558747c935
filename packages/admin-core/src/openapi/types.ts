/**
 * The parts of OpenAPI 3.0.3 the admin's description uses (docs/openapi.md). Schemas are plain
 * JSON data: a Schema Object or a `$ref` to one in `components.schemas`.
 */

import type { Header, Parameter, RequestBody, Response, Schema } from '../schema/types.ts';

export type { Response };

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: RequestBody;
  /** Keyed by status; the value is a Response or a `$ref` to `components.responses`. */
  responses: Record<string, Response | { $ref: string }>;
  security?: Array<Record<string, string[]>>;
}

export type PathItem = Partial<Record<'get' | 'post' | 'put' | 'delete', Operation>> & {
  /** A plugin route outside the admin API: its own server, the host's root (docs/openapi.md, "Plugin routes"). */
  servers?: Array<{ url: string; description?: string }>;
};

export interface OpenApiDocument {
  openapi: '3.0.3';
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string; description?: string }>;
  tags: Array<{ name: string; description?: string }>;
  security: Array<Record<string, string[]>>;
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, Schema>;
    responses: Record<string, Response>;
    headers: Record<string, Header>;
    parameters: Record<string, Parameter>;
    securitySchemes: Record<string, Record<string, unknown>>;
  };
}
