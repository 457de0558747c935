/**
 * The parts of OpenAPI 3.0.3 a route's description uses (docs/openapi.md). Schemas are plain JSON
 * data: a Schema Object or a `$ref` to one in `components.schemas`.
 */

/** An OpenAPI 3.0 Schema Object (the JSON Schema subset OpenAPI 3.0.3 defines), or a reference. */
export type Schema = { readonly [key: string]: unknown };

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
  style?: 'form' | 'simple' | 'deepObject';
  explode?: boolean;
  schema: Schema;
}

interface MediaType {
  schema: Schema;
}

export interface Header {
  description?: string;
  required?: boolean;
  schema: Schema;
}

export interface Response {
  description: string;
  headers?: Record<string, Header | { $ref: string }>;
  content?: Record<string, MediaType>;
}

export interface RequestBody {
  required?: boolean;
  description?: string;
  content: Record<string, MediaType>;
}

/** `#/components/schemas/<name>`. */
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
