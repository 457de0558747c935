import { exact, integer, object, string, ID } from './json.ts';
import { ref, type Header, type Parameter, type RequestBody, type Response, type Schema } from './types.ts';

/**
 * A route's description (docs/openapi.md, "Operations"; docs/architecture.md, "Where things
 * go"): its inputs as JSON Schema, its success answers, and the error statuses its handler adds
 * to those every route of its kind answers (the pipeline's 401, 403 and 422, and 500;
 * `openapi/document.ts` adds them). The pipeline validates the inputs from it before the handler
 * runs (`http/validate.ts`), and the OpenAPI document is generated from the same objects.
 */
export interface RouteSchema {
  /** The operationId: unique in the document. */
  id: string;
  summary: string;
  description?: string;
  /** Path, query and header parameters. A path parameter that fails its schema answers 404; the others 422. */
  parameters?: Parameter[];
  body?: RequestBody;
  /**
   * The handler decodes the JSON body itself (record and settings values, decoded by their field
   * types with the database at hand): the pipeline checks only that it is an object.
   */
  handlerDecodesBody?: true;
  /**
   * The handler decodes the query itself (a list's `filter[<name>]` keys, checked against the
   * list's filters in the same round as the paging): the pipeline checks only the path and headers.
   */
  handlerDecodesQuery?: true;
  /** Message keys by detail key (`X-Session-Key`: any failure there) or key and keyword (`admin_theme:enum`), instead of the keyword's. */
  messages?: Readonly<Record<string, string>>;
  /** Success answers by status. */
  success: Record<string, Response>;
  /** Error statuses the handler answers besides the pipeline's. */
  errors?: number[];
  /** Error answers of the route's own (a controller's 412). */
  errorResponses?: Record<string, Response>;
}

/**
 * Where the schemas a description references go: `components.schemas` of the document, filled
 * once at start-up in route order (the controllers' records, bodies and rows, docs/openapi.md,
 * "Controllers").
 */
export interface SchemaComponents {
  /** The admin's locales (localized values have one key each). */
  locales: readonly string[];
  /** The admin themes a preference may name. */
  themes: readonly string[];
  /** The codes of the settings forms (link entries have no `/settings/{code}` route). */
  settingsCodes: readonly string[];
  schemas: Record<string, Schema>;
}

/** What a route carries: its description, or a function making it once at start-up from the shared components. */
export type RouteSchemaSource = RouteSchema | ((components: SchemaComponents) => RouteSchema);

const REQUEST_ID = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };

/** A JSON answer with this body schema. */
export function answer(description: string, schema: Schema, headers: Record<string, Header | { $ref: string }> = {}): Response {
  return { description, headers: { ...REQUEST_ID, ...headers }, content: { 'application/json': { schema } } };
}

/** A success envelope `{data, meta}` (spec 2.1); `meta` defaults to the empty one. */
export const envelope = (data: Schema, meta: Schema = ref('EmptyMeta')): Schema => exact({ data, meta });

/** `200` with the envelope of `data`. */
export const ok = (description: string, data: Schema, meta?: Schema, headers?: Record<string, Header | { $ref: string }>) => ({
  200: answer(description, envelope(data, meta), headers),
});

/** A JSON request body. */
export const jsonBody = (schema: Schema, required = true, description?: string): RequestBody => ({
  required,
  ...(description ? { description } : {}),
  content: { 'application/json': { schema } },
});

/** A multipart body of one file field. */
export const multipartBody = (field: string, maxBytes: number, description: string): RequestBody => ({
  required: true,
  description,
  content: {
    'multipart/form-data': {
      schema: object({ [field]: string({ format: 'binary', description: `At most ${maxBytes} bytes.` }) }, [field], {
        additionalProperties: false,
      }),
    },
  },
});

/** A binary answer (a protected file's bytes). */
export const binary = (description: string, mediaType: string): Response => ({
  description,
  headers: { ...REQUEST_ID },
  content: { [mediaType]: { schema: string({ format: 'binary' }) } },
});

/** A path parameter; `values` makes it an enum (a parameter with other values answers 404). */
export function pathParam(name: string, description: string, schema: Schema = string()): Parameter {
  return { name, in: 'path', required: true, description, schema };
}

/** A path parameter of one of `values` (404 for any other), or any string when there is none. */
export const namedParam = (name: string, description: string, values: readonly string[]): Parameter =>
  pathParam(name, description, values.length ? string({ enum: [...values] }) : string());

export const idParam = (name = 'id', description = 'A record id.'): Parameter => pathParam(name, description, ID);

/** `{id}` of relation and file routes: a record id, or 0 before the record's first save (with `X-Session-Key`). */
export const parentParam = (): Parameter =>
  pathParam(
    'id',
    'The record id, or 0 before its first save (then `X-Session-Key` is required).',
    integer({ minimum: 0, maximum: 2_147_483_647 }),
  );

export const queryParam = (name: string, description: string, schema: Schema): Parameter => ({ name, in: 'query', description, schema });

export const headerParam = (name: string, description: string, schema: Schema = string(), required = false): Parameter => ({
  name,
  in: 'header',
  ...(required ? { required: true } : {}),
  description,
  schema,
});

/** A form session key (`X-Session-Key`, `X-Child-Session-Key`, `X-Upload-Id`). */
export const SESSION_KEY: Schema = string({ pattern: '^[A-Za-z0-9._-]{1,128}$' });

export const sessionKeyHeader = (required = false, description?: string): Parameter =>
  headerParam(
    'X-Session-Key',
    description ?? 'The form session: changes are held as deferred bindings until the record is saved with the same key.',
    SESSION_KEY,
    required,
  );

/** The paging query of a list of records (docs/controllers.md, "The list route"). */
export const pageParams = (perPage?: readonly number[], maxPerPage?: number): Parameter[] => [
  queryParam('page', 'The page, from 1.', integer({ minimum: 1, maximum: 1_000_000 })),
  queryParam(
    'per_page',
    'The page size.',
    perPage ? integer({ enum: [...perPage] }) : integer({ minimum: 1, ...(maxPerPage ? { maximum: maxPerPage } : {}) }),
  ),
];
