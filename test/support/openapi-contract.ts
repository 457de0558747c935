import { afterAll, afterEach, beforeEach, expect } from 'vitest';
import { AdminCore, type AdapterRequest, type AdapterResponse } from '@cms/admin-core/adapter';
import { DocumentChecker } from './openapi-document.ts';

/*
 * The contract check of every HTTP test (docs/openapi.md, "The contract in the tests"): a vitest
 * `setupFiles` entry that wraps `AdminCore.prototype.handle`, the one entry point of every
 * adapter, and checks each answer under `{prefix}/api`, and of each plugin route the document
 * describes, against the admin's own OpenAPI document: the operation of the method and path, the
 * status among its responses, the JSON body against the schema of that status. A mismatch fails
 * the running test (after it, with the route, status and schema path); one outside any test (a
 * `beforeAll`) fails the next test, or the file.
 */

/** One checker per document: the compiled validators are cached in it. Same bytes, same checker. */
const byDocument = new WeakMap<object, DocumentChecker>();
const byTag = new Map<string, DocumentChecker>();

function checkerOf(core: AdminCore): DocumentChecker {
  const { document, etag } = core.openapi;
  let checker = byDocument.get(document);
  if (!checker) {
    const key = `${core.config.apiBase} ${etag}`;
    checker = byTag.get(key) ?? new DocumentChecker(document, core.config.apiBase);
    byTag.set(key, checker);
    byDocument.set(document, checker);
  }
  return checker;
}

const mismatches: string[] = [];

function bodyOf(response: AdapterResponse, contentType: string): unknown {
  if (response.body === undefined) return undefined;
  if (!contentType.startsWith('application/json')) return undefined;
  const text = typeof response.body === 'string' ? response.body : response.body.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function check(core: AdminCore, request: AdapterRequest, response: AdapterResponse): void {
  const { prefix, apiBase } = core.config;
  const path = request.path;
  const lower = path.toLowerCase();
  // The JSON routes and the JSON 404 of the rest of `{prefix}/api` (the dispatcher matches case-insensitively).
  const api = `${prefix.toLowerCase()}/api`;
  // And the plugin routes outside the prefix the document describes (docs/openapi.md, "Plugin routes").
  if (lower !== api && !lower.startsWith(`${api}/`) && !checkerOf(core).isPluginPath(path)) return;
  const below = lower.startsWith(`${apiBase.toLowerCase()}/`) ? `${apiBase}${path.slice(apiBase.length)}` : path;
  // HEAD runs the GET route; the adapter drops the body.
  const method = request.method.toUpperCase() === 'HEAD' ? 'GET' : request.method.toUpperCase();
  const contentType = String(response.headers['Content-Type'] ?? response.headers['content-type'] ?? '');
  const result = checkerOf(core).check(
    method,
    below,
    response.status,
    bodyOf(response, contentType),
    // An answer without a body is checked as one: a declared JSON body must be there.
    response.body === undefined ? 'application/json' : contentType,
  );
  if (result.errors.length === 0) return;
  const test = expect.getState().currentTestName;
  const body = typeof response.body === 'string' ? response.body.slice(0, 600) : '';
  mismatches.push(
    [
      `${request.method} ${path} → ${response.status} (operation ${method.toLowerCase()} ${result.template || '(none)'})${test ? ` in "${test}"` : ''}:`,
      ...result.errors.map((error) => `  ${error}`),
      ...(body ? [`  body: ${body}`] : []),
    ].join('\n'),
  );
}

const handle = AdminCore.prototype.handle;
AdminCore.prototype.handle = async function checkedHandle(this: AdminCore, request: AdapterRequest) {
  const response = await handle.call(this, request);
  if (response) {
    try {
      check(this, request, response);
    } catch (error) {
      mismatches.push(`${request.method} ${request.path} → ${response.status}: the contract check failed: ${String(error)}`);
    }
  }
  return response;
};

function flush(): void {
  if (mismatches.length === 0) return;
  const found = mismatches.splice(0);
  throw new Error(`${found.length} answer(s) do not match the OpenAPI document (docs/openapi.md):\n${found.join('\n')}`);
}

// Mismatches of a `beforeAll` fail the first test; those of the test and its hooks fail the test.
beforeEach(flush);
afterEach(flush);
afterAll(flush);
