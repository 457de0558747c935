import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import { expect } from 'vitest';
import type { Response } from 'supertest';

/**
 * Checks answers against the admin's OpenAPI document (docs/openapi.md, "Checking answers"): the
 * operation of a method and path, the status among its responses, and the body against the
 * schema of that status. OpenAPI 3.0's `nullable` is Ajv's own keyword; `$ref`s point into the
 * document's `components`.
 */

type Doc = { paths: Record<string, Record<string, Operation>>; components: { responses: Record<string, ResponseObject> } };
const METHODS = ['get', 'post', 'put', 'delete'];
interface Operation {
  responses: Record<string, ResponseObject | { $ref: string }>;
}
interface ResponseObject {
  content?: Record<string, { schema: unknown }>;
}

const DOC_ID = 'openapi.json';
const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

export interface ResponseCheck {
  /** The path template the request matched (`/cms/journal/posts/{id}`). */
  template: string;
  errors: string[];
}

export class DocumentChecker {
  readonly #doc: Doc;
  readonly #ajv: Ajv;
  readonly #templates: Array<{ template: string; regexp: RegExp; params: number; outside: boolean }>;
  readonly #compiled = new Map<string, ValidateFunction>();

  readonly apiBase: string;

  constructor(document: unknown, apiBase: string) {
    this.apiBase = apiBase;
    this.#doc = document as Doc;
    this.#ajv = new Ajv({ strict: false, allErrors: true });
    // ajv-formats is CommonJS: its plugin is the module's `default` (the import itself at run time has it too).
    formats.default(this.#ajv);
    this.#ajv.addSchema({ $id: DOC_ID, components: (document as { components: unknown }).components, paths: this.#doc.paths });
    this.#templates = Object.keys(this.#doc.paths)
      .map((template) => ({
        template,
        // As the dispatcher matches (http/match.ts): case-insensitive, one trailing slash ignored.
        regexp: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i'),
        params: (template.match(/\{/g) ?? []).length,
        // A plugin route outside the admin API: its path is absolute, on a server of its own.
        outside: 'servers' in this.#doc.paths[template]!,
      }))
      // Concrete paths before templated ones (OpenAPI 3.0, "Path Templating Matching").
      .sort((a, b) => a.params - b.params);
  }

  /** Compiles every schema of every operation: a `$ref` that does not resolve throws. */
  compileAll(): number {
    let count = 0;
    for (const [template, item] of Object.entries(this.#doc.paths))
      for (const [method, operation] of Object.entries(item).filter(([key]) => METHODS.includes(key)))
        for (const status of Object.keys(operation.responses)) {
          const found = this.#schemaPointer(template, method, status, 'application/json');
          if (found) {
            this.#validator(found);
            count++;
          }
        }
    return count;
  }

  /**
   * The template a request path (below the API base) matches: as the dispatcher routes, by method
   * first (`GET /roles/bulk-delete` is the show route of a record `bulk-delete`), concrete paths
   * before templated ones.
   */
  templateOf(path: string, method?: string, outside = false): string | undefined {
    const matching = this.#templates.filter((entry) => entry.outside === outside && entry.regexp.test(path));
    const withMethod = method === undefined ? undefined : matching.find((entry) => this.#doc.paths[entry.template]?.[method.toLowerCase()]);
    return (withMethod ?? matching[0])?.template;
  }

  #schemaPointer(template: string, method: string, status: string, mediaType: string): string | undefined {
    const operation = this.#doc.paths[template]?.[method];
    const response = operation?.responses[status];
    if (!response) return undefined;
    if ('$ref' in response) {
      const name = response.$ref.split('/').pop()!;
      return this.#doc.components.responses[name]?.content?.[mediaType]
        ? `${DOC_ID}#/${pointer('components', 'responses', name, 'content', mediaType, 'schema')}`
        : undefined;
    }
    return response.content?.[mediaType]
      ? `${DOC_ID}#/${pointer('paths', template, method, 'responses', status, 'content', mediaType, 'schema')}`
      : undefined;
  }

  #validator(ref: string): ValidateFunction {
    let validate = this.#compiled.get(ref);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: ref });
      this.#compiled.set(ref, validate);
    }
    return validate;
  }

  /** Whether an absolute path is one of the plugin routes the document describes outside the API. */
  isPluginPath(path: string): boolean {
    return this.#templates.some((entry) => entry.outside && entry.regexp.test(path));
  }

  /** Checks one answer: the operation exists, declares the status, and the JSON body matches. */
  check(method: string, url: string, status: number, body: unknown, contentType = 'application/json'): ResponseCheck {
    // The raw path, as the dispatcher matches it: `new URL` would resolve `%2e%2e` segments away.
    const path = url.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0]!;
    const inside = path.startsWith(this.apiBase);
    const below = inside ? path.slice(this.apiBase.length) : path;
    const template = this.templateOf(below, method, !inside && this.isPluginPath(path));
    const operation = template === undefined ? undefined : this.#doc.paths[template]?.[method.toLowerCase()];
    if (!template || !operation) {
      // No route: the JSON 404 of any unknown path under the API (spec 1).
      if (status !== 404) return { template: template ?? '', errors: [`${method} ${below} matches no operation but answered ${status}`] };
      const validate = this.#validator(`${DOC_ID}#/${pointer('components', 'schemas', 'Error404')}`);
      return { template: template ?? '', errors: validate(body) ? [] : [`the 404 of an unknown route does not match Error404`] };
    }
    if (!operation.responses[String(status)]) return { template, errors: [`${method} ${template} does not declare ${status}`] };
    if (!contentType.startsWith('application/json')) return { template, errors: [] };
    const ref = this.#schemaPointer(template, method.toLowerCase(), String(status), 'application/json');
    if (!ref)
      return {
        template,
        errors:
          body === undefined || body === '' || (typeof body === 'object' && body !== null && Object.keys(body).length === 0)
            ? []
            : [`${method} ${template} ${status} declares no JSON body`],
      };
    const validate = this.#validator(ref);
    if (validate(body)) return { template, errors: [] };
    return {
      template,
      errors: (validate.errors ?? []).map(
        (error) => `${error.instancePath || '(body)'} ${error.message} ${JSON.stringify(error.params)} (schema ${error.schemaPath})`,
      ),
    };
  }

  /** Asserts that a supertest answer matches the document. */
  expectMatch(response: Response): void {
    const request = (response as unknown as { req: { method: string; path: string } }).req;
    const result = this.check(
      request.method,
      request.path,
      response.status,
      response.body,
      String(response.headers['content-type'] ?? 'application/json'),
    );
    expect(
      result.errors,
      `${request.method} ${request.path} → ${response.status} (${result.template}): ${JSON.stringify(response.body).slice(0, 2000)}`,
    ).toEqual([]);
  }
}

/**
 * The document is the safety net of every change to route descriptions (docs/openapi.md, "The
 * baseline"): its served bytes must stay those recorded unless a change means to alter the API.
 * `UPDATE_OPENAPI_BASELINE=1` records the current bytes instead of comparing.
 */
export function expectBaseline(served: { body: { toString(): string }; etag: string; undescribed: readonly string[] }, file: URL): void {
  expect(served.undescribed).toEqual([]);
  const recorded = `${JSON.stringify(JSON.parse(served.body.toString()), null, 1)}\n`;
  if (process.env.UPDATE_OPENAPI_BASELINE === '1') {
    mkdirSync(new URL('.', file), { recursive: true });
    writeFileSync(file, recorded);
    return;
  }
  const expected = readFileSync(file, 'utf8');
  // Compared as text first (a readable diff), then as served bytes (the ETag clients cache by).
  expect(recorded).toBe(expected);
  expect(served.body.toString()).toBe(JSON.stringify(JSON.parse(expected)));
}
