import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import axios, { type AxiosAdapter } from 'axios';
import { Client, Errors, type ConfigurationOptions } from 'typesense';
import { addressRefusal, AddressRefused, checkedLookup, isMetadataName, literalAddress, type AddressPolicy } from './address.ts';

/**
 * The journal's use of Typesense (docs/journal.md, "Search gate"), through the `typesense` client
 * library: upsert and delete one document, import many, create the collection when it is missing.
 * The library is given an HTTP adapter of its own, the one hand-written part, for what it cannot
 * be told: never follow a redirect (every request carries the API key and the posts, and a
 * redirect would hand both to whatever origin the answer names; docs/security.md), bound every
 * request in time (the library leaves imports unbounded) and in answer size. The library retries
 * nothing (`numRetries: 0`): the journal's queue retries with backoff (./queue.ts).
 * Errors say what happened without the engine's own words (an engine that echoes the request
 * would put the key in the log). The adapter also checks the engine's address (./address.ts): an IP
 * literal before the request, a host name through the connection's own DNS lookup, so the request
 * connects only to an address that was checked (docs/journal.md, "The engine's address").
 */

export interface SearchTarget {
  /** Base URL, `http://host:8108` (a trailing slash is ignored). */
  url: string;
  apiKey: string;
  /** The host allows loopback and private addresses (`typesense: { allowPrivateAddresses: true }`); default false. */
  allowPrivateAddresses?: boolean;
}

export interface SearchClientOptions {
  /** Milliseconds per request (default 5000). */
  timeoutMs?: number;
}

/** The collection of the journal's posts. */
const POSTS_COLLECTION = 'posts';

/** A post as a document of the `posts` collection. */
export interface PostDocument {
  [key: string]: unknown;
  id: string;
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  tags: string[];
  /** Unix seconds; 0 when the post has no date. */
  published_at: number;
}

/** The collection's schema, created on first use when the engine does not have it. */
const POSTS_SCHEMA = {
  name: POSTS_COLLECTION,
  fields: [
    { name: 'title', type: 'string' },
    { name: 'slug', type: 'string' },
    { name: 'excerpt', type: 'string', optional: true },
    { name: 'content', type: 'string', optional: true },
    { name: 'tags', type: 'string[]', facet: true, optional: true },
    { name: 'published_at', type: 'int64' },
  ],
  default_sorting_field: 'published_at',
} as const;

/** Largest answer read from the engine (an import answers one short line per document). */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/**
 * A failed request, said without the engine's own words. `retryable`: the same request may
 * succeed later (the engine was unreachable, slow or failing); a setting or a refusal is not.
 */
export class SearchEngineError extends Error {
  readonly retryable: boolean;

  constructor(message: string, retryable: boolean, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SearchEngineError';
    this.retryable = retryable;
  }
}

/** Checks the URL the settings hold: an http(s) URL, without its trailing slashes. */
function baseUrl(url: string, policy: AddressPolicy): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SearchEngineError('the Typesense URL is not a valid URL', false);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new SearchEngineError('the Typesense URL must use http or https', false);
  // An IP literal is never looked up: it is checked here (a host name by the lookup below).
  const literal = literalAddress(parsed.hostname);
  const reason = literal === undefined ? undefined : addressRefusal(literal, policy);
  if (reason) throw new SearchEngineError(`the Typesense URL is refused: ${new AddressRefused(literal!, reason).message}`, false);
  if (isMetadataName(parsed.hostname))
    throw new SearchEngineError(`the Typesense URL is refused: ${new AddressRefused(parsed.hostname, 'never').message}`, false);
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

const httpAdapter = axios.getAdapter('http');

/**
 * axios's own HTTP adapter with the journal's policy: no redirect followed (a 3xx is an answer,
 * which the library turns into an error), a timeout on every request, a bounded answer, and no
 * proxy: axios would otherwise take one from `HTTP_PROXY`/`HTTPS_PROXY`, connect to it instead,
 * and the checked lookup would see the proxy's name, never the engine's (docs/journal.md, "The
 * engine's address"). The engine is always reached directly.
 */
const policyAdapter =
  (timeoutMs: number, policy: AddressPolicy): AxiosAdapter =>
  async (config) => {
    let refused: AddressRefused | undefined;
    // The connection resolves the name through this lookup and connects to what it answered.
    const lookup = checkedLookup(policy, (error) => {
      refused = error;
    });
    try {
      return await httpAdapter({
        ...config,
        proxy: false,
        maxRedirects: 0,
        timeout: timeoutMs,
        maxContentLength: MAX_ANSWER_BYTES,
        lookup,
      });
    } catch (error) {
      if (refused) throw new SearchEngineError(`the Typesense URL is refused: ${refused.message}`, false);
      throw error;
    }
  };

/** The library logs warnings to the console by default; the journal reports failures itself. */
const silent = Object.fromEntries(
  ['trace', 'debug', 'info', 'warn', 'error', 'log', 'setLevel', 'setDefaultLevel', 'resetLevel', 'enableAll', 'disableAll'].map((name) => [
    name,
    () => undefined,
  ]),
) as unknown as NonNullable<ConfigurationOptions['logger']>;

// Plain connections: the library would otherwise open a keep-alive agent per import.
const agents = { httpAgent: new HttpAgent({ keepAlive: false }), httpsAgent: new HttpsAgent({ keepAlive: false }) };

function client(target: SearchTarget, options: SearchClientOptions): Client {
  if (target.apiKey === '') throw new SearchEngineError('no Typesense API key is configured', false);
  const policy: AddressPolicy = { allowPrivateAddresses: target.allowPrivateAddresses === true };
  return new Client({
    nodes: [{ url: baseUrl(target.url, policy) }],
    apiKey: target.apiKey,
    numRetries: 0,
    connectionTimeoutSeconds: (options.timeoutMs ?? 5000) / 1000,
    healthcheckIntervalSeconds: 0,
    axiosAdapter: policyAdapter(options.timeoutMs ?? 5000, policy),
    logger: silent,
    ...agents,
  });
}

/** What the error of a failed request says: the kind of failure and the HTTP status, never the engine's words. */
function describe(error: unknown, target: SearchTarget, timeoutMs: number): SearchEngineError {
  if (error instanceof SearchEngineError) return error;
  if (error instanceof Errors.ImportError) {
    const failed = error.importResults.filter((result) => !result.success).length;
    return new SearchEngineError(`Typesense refused ${failed} of ${error.importResults.length} documents`, false, { cause: error });
  }
  const status = (error as { httpStatus?: unknown }).httpStatus;
  if (typeof status === 'number') {
    if (status >= 300 && status < 400)
      return new SearchEngineError(
        `Typesense answered a redirect (HTTP ${status}), which is not followed: set the engine's own URL`,
        false,
      );
    return new SearchEngineError(`Typesense refused the request with HTTP ${status}`, status >= 500 || status === 408 || status === 429);
  }
  const code = (error as { code?: unknown }).code;
  if (code === 'ECONNABORTED' || code === 'ETIMEDOUT')
    return new SearchEngineError(`Typesense did not answer within ${timeoutMs} ms`, true);
  let origin = target.url;
  try {
    origin = new URL(target.url).origin;
  } catch {
    // already refused by baseUrl
  }
  return new SearchEngineError(`Typesense could not be reached at ${origin}${typeof code === 'string' ? ` (${code})` : ''}`, true);
}

const isNotFound = (error: unknown) => error instanceof Errors.ObjectNotFound;

/** Creates the posts collection; one created meanwhile by another process is fine. */
async function createCollection(engine: Client): Promise<void> {
  try {
    await engine.collections().create(POSTS_SCHEMA as never);
  } catch (error) {
    if (!(error instanceof Errors.ObjectAlreadyExists)) throw error;
  }
}

/** Runs `work`; when the collection is missing (404), creates it and runs `work` once more. */
async function withCollection<T>(engine: Client, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isNotFound(error)) throw error;
    await createCollection(engine);
    return work();
  }
}

/** Upserts one post (`POST /collections/posts/documents?action=upsert`). */
export async function upsertPost(target: SearchTarget, document: PostDocument, options: SearchClientOptions = {}): Promise<void> {
  try {
    const engine = client(target, options);
    await withCollection(engine, () => engine.collections<PostDocument>(POSTS_COLLECTION).documents().upsert(document));
  } catch (error) {
    throw describe(error, target, options.timeoutMs ?? 5000);
  }
}

/** Removes one post (`DELETE /collections/posts/documents/{id}`); one the engine does not have is removed already. */
export async function removePost(target: SearchTarget, id: string, options: SearchClientOptions = {}): Promise<void> {
  try {
    const engine = client(target, options);
    await engine.collections(POSTS_COLLECTION).documents(id).delete();
  } catch (error) {
    if (isNotFound(error)) return;
    throw describe(error, target, options.timeoutMs ?? 5000);
  }
}

/** Imports posts with `action=upsert` in one request; every one of them accepted, or it throws. */
export async function importPosts(target: SearchTarget, documents: PostDocument[], options: SearchClientOptions = {}): Promise<number> {
  if (documents.length === 0) return 0;
  try {
    const engine = client(target, options);
    await withCollection(engine, () =>
      engine.collections<PostDocument>(POSTS_COLLECTION).documents().import(documents, { action: 'upsert' }),
    );
    return documents.length;
  } catch (error) {
    throw describe(error, target, options.timeoutMs ?? 5000);
  }
}
