import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.d.ts';

/**
 * A typed client of the example app (docs/openapi.md, "Typed clients"): `openapi-fetch` over the
 * types `pnpm generate:client` writes to `client/schema.d.ts`. Paths, query parameters, bodies,
 * answers and error codes are all checked by the compiler against the app's OpenAPI document.
 *
 * Run it against a running example app (`pnpm start`), from `examples/blog`:
 *
 *   ADMIN_PASSWORD=… npx -y pnpm@12.21.0 exec node client/example.ts http://127.0.0.1:3000/backend
 *
 * (`ADMIN_LOGIN` defaults to `admin`, the URL to the one shown). It creates one draft post each time it runs.
 */

type Schemas = components['schemas'];

export interface Credentials {
  login: string;
  password: string;
}

export interface ExampleResult {
  /** The Bearer sign-in: the token's type and lifetime (the token itself stays inside the client). */
  signedIn: { tokenType: Schemas['AdminLoginData']['token_type']; expiresIn: number };
  /** The first page of the published posts, newest first. */
  published: { total: number; rows: Schemas['cms.journal.posts.Row'][] };
  /** The post the example created. */
  created: Schemas['cms.journal.posts.Record'];
  /** The refused create (no title): its status, error code and the messages by field. */
  refused: { status: number; code: Schemas['Error422']['error']['code']; details: Record<string, string[]> };
}

export interface ExampleOptions {
  /** Another `fetch` (tests pass one that records every exchange). */
  fetch?: (request: Request) => Promise<Response>;
}

/** A failure the example did not expect: the route, the status and the error envelope's code. */
export class ExampleError extends Error {
  constructor(step: string, response: Response, error: unknown) {
    const code = (error as { error?: { code?: unknown } } | undefined)?.error?.code;
    super(`${step}: ${response.status}${typeof code === 'string' ? ` ${code}` : ''}`);
    this.name = 'ExampleError';
  }
}

/**
 * Signs in over the Bearer transport, lists the published posts, creates a draft post, then sends a
 * create without a title and reads the 422. `adminUrl` is the admin's URL as the app's ready line
 * prints it (`http://127.0.0.1:3000/backend`); the API is below it at `/api/v1`.
 */
export async function runExample(adminUrl: string, credentials: Credentials, options: ExampleOptions = {}): Promise<ExampleResult> {
  const api = createClient<paths>({
    baseUrl: `${adminUrl.replace(/\/+$/, '')}/api/v1`,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  // 1. Sign in. Without `X-Requested-With` the session comes back as a Bearer token (docs/auth.md).
  const login = await api.POST('/auth/login', { body: { login: credentials.login, password: credentials.password } });
  if (!login.data) throw new ExampleError('POST /auth/login', login.response, login.error);
  const { access_token: token, token_type: tokenType, expires_in: expiresIn } = login.data.data;
  if (!token) throw new Error('POST /auth/login: no access token on the Bearer transport');
  // Every later request carries the token.
  const bearer: Middleware = {
    onRequest: ({ request }) => {
      request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
  api.use(bearer);

  // 2. The published posts, newest first: `filter` is a deepObject, sent as `filter[status]=published`.
  const list = await api.GET('/cms/journal/posts', {
    params: { query: { filter: { status: 'published' }, sort: 'published_at', dir: 'desc', per_page: 20 } },
  });
  if (!list.data) throw new ExampleError('GET /cms/journal/posts', list.response, list.error);

  // 3. A draft post. `title` and `slug` are required on create; the answer is the record (201).
  const suffix = Date.now().toString(36);
  const create = await api.POST('/cms/journal/posts', {
    body: { title: 'Written by the typed client', slug: `typed-client-${suffix}`, status: 'draft', tags: ['openapi'] },
  });
  if (!create.data) throw new ExampleError('POST /cms/journal/posts', create.response, create.error);

  // 4. No title: the schema allows null (the type would not let the key be left out), the
  //    server refuses it with 422 `validation_failed` and the messages under `details.title`.
  const invalid = await api.POST('/cms/journal/posts', { body: { title: null, slug: `typed-client-${suffix}-2` } });
  // The error body is typed as the union of the route's error envelopes; its `code` tells them apart.
  const refusal = invalid.error?.error;
  if (invalid.response.status !== 422 || refusal?.code !== 'validation_failed') {
    throw new ExampleError('POST /cms/journal/posts (no title)', invalid.response, invalid.error);
  }

  return {
    signedIn: { tokenType, expiresIn },
    published: { total: list.data.meta.total, rows: list.data.data },
    created: create.data.data,
    refused: { status: invalid.response.status, code: refusal.code, details: refusal.details },
  };
}

if (import.meta.main) {
  const adminUrl = process.argv[2] ?? 'http://127.0.0.1:3000/backend';
  const password = process.env.ADMIN_PASSWORD;
  if (!password) {
    console.error('Usage: ADMIN_PASSWORD=… [ADMIN_LOGIN=admin] node client/example.ts [admin URL, default http://127.0.0.1:3000/backend]');
    process.exit(2);
  }
  try {
    const result = await runExample(adminUrl, { login: process.env.ADMIN_LOGIN ?? 'admin', password });
    const { signedIn, published, created, refused } = result;
    console.log(`Signed in: ${signedIn.tokenType} token, expires in ${signedIn.expiresIn} s.`);
    console.log(`${published.total} published posts, newest first: ${published.rows.map((row) => `"${row.title}"`).join(', ') || 'none'}.`);
    console.log(`Created post ${created.id}: "${created.title}" (${created.status}).`);
    const messages = Object.entries(refused.details).map(([field, texts]) => `${field}: ${texts.join(' ')}`);
    console.log(`A create without a title: ${refused.status} ${refused.code} (${messages.join('; ')}).`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
