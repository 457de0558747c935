/**
 * A small Typesense client: only what the journal needs, the upsert of documents into one
 * collection through the import endpoint (JSON lines). Every request has a bounded timeout, and
 * every failure (unreachable engine, timeout, HTTP error, a document the engine refused) throws
 * a `TypesenseError` that says what happened; it never hangs and never reports a partial success
 * as a success. The API key travels in a header only and never appears in an error message.
 * Redirects are never followed: every request carries the key and the posts, and a redirect would
 * hand both to whatever origin the answer names (docs/security.md, "Host hardening and uploads").
 */

export interface TypesenseOptions {
  /** Base URL, `http://host:8108` (a trailing slash is ignored). */
  url: string;
  apiKey: string;
  /** Milliseconds per request (default 5000). */
  timeoutMs?: number;
  /** Documents per request (default 500). */
  batchSize?: number;
}

export class TypesenseError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TypesenseError';
  }
}

/** A document of the import endpoint: an object with a string `id`. */
export type TypesenseDocument = { id: string } & Record<string, unknown>;

function baseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypesenseError('the Typesense URL is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypesenseError('the Typesense URL must use http or https');
  return parsed;
}

/** One line of the import answer: `{"success": true}` or `{"success": false, "error": "…"}`. */
function results(answer: string): { count: number; errors: string[] } {
  const errors: string[] = [];
  let count = 0;
  for (const line of answer.split('\n')) {
    if (line.trim() === '') continue;
    let result: { success?: unknown; error?: unknown };
    try {
      result = JSON.parse(line) as typeof result;
    } catch {
      throw new TypesenseError('Typesense answered an import result that is not JSON lines');
    }
    count += 1;
    if (result.success !== true) errors.push(typeof result.error === 'string' ? result.error : 'refused');
  }
  return { count, errors };
}

/**
 * Upserts `documents` into `collection` (`POST /collections/{collection}/documents/import?action=upsert`).
 * Answers the number of documents the engine accepted (all of them, or it throws).
 */
export async function upsertDocuments(
  options: TypesenseOptions,
  collection: string,
  documents: readonly TypesenseDocument[],
): Promise<number> {
  if (options.apiKey === '') throw new TypesenseError('no Typesense API key is configured');
  const base = baseUrl(options.url);
  const endpoint = new URL(`${base.pathname.replace(/\/+$/, '')}/collections/${encodeURIComponent(collection)}/documents/import`, base);
  endpoint.searchParams.set('action', 'upsert');
  const timeoutMs = options.timeoutMs ?? 5000;
  const batchSize = options.batchSize ?? 500;
  let accepted = 0;
  for (let start = 0; start < documents.length; start += batchSize) {
    const batch = documents.slice(start, start + batchSize);
    let response: Response;
    let answer: string;
    try {
      // One signal for the request and its answer: a server that stalls mid-body times out too.
      const signal = AbortSignal.timeout(timeoutMs);
      response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain', 'X-TYPESENSE-API-KEY': options.apiKey },
        body: batch.map((document) => JSON.stringify(document)).join('\n'),
        redirect: 'manual',
        signal,
      });
      answer = await response.text();
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new TypesenseError(`Typesense did not answer within ${timeoutMs} ms`, { cause: error });
      throw new TypesenseError(`Typesense could not be reached at ${base.origin}`, { cause: error });
    }
    // Where it points is not repeated either: it is the engine's (or an attacker's) word.
    if (response.status >= 300 && response.status < 400)
      throw new TypesenseError(`Typesense answered a redirect (HTTP ${response.status}), which is not followed: set the engine's own URL`);
    if (!response.ok) throw new TypesenseError(`Typesense refused the import with HTTP ${response.status}`);
    const { count, errors } = results(answer);
    // The engine's own words are not repeated: a server that echoes the request would put the key in the log.
    if (errors.length > 0) throw new TypesenseError(`Typesense refused ${errors.length} of ${batch.length} documents`);
    if (count !== batch.length) throw new TypesenseError(`Typesense answered ${count} import results for ${batch.length} documents`);
    accepted += batch.length;
  }
  return accepted;
}
