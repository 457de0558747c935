import { createHash } from 'node:crypto';
import type { AdminRequest, AdminResponse, RouteDefinition } from '../http/types.ts';
import type { BuiltDocument } from './document.ts';
import type { OpenApiDocument } from './types.ts';
import { answer as describedAnswer, headerParam, type RouteSchema } from '../schema/route.ts';

/** Who may read the document (docs/openapi.md, "Serving it"): anyone, any signed-in admin, or nobody (no route). */
export type OpenApiAccess = 'public' | 'authenticated' | false;

/** The document serialized once, with its entity tag. */
export interface ServedDocument {
  readonly document: OpenApiDocument;
  readonly body: Buffer;
  readonly etag: string;
  /** Routes that got a generic operation (`METHOD path`); empty for every route the core makes. */
  readonly undescribed: readonly string[];
}

export function serveDocument({ document, undescribed }: BuiltDocument): ServedDocument {
  const body = Buffer.from(JSON.stringify(document), 'utf8');
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return Object.freeze({ document, body, etag, undescribed: Object.freeze([...undescribed]) });
}

/** Whether `If-None-Match` names the tag (weak comparison, RFC 9110 13.1.2), or is `*`. */
function matchesTag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function answer(req: AdminRequest, served: ServedDocument, access: 'public' | 'authenticated'): AdminResponse {
  const headers = { ETag: served.etag, 'Cache-Control': access === 'public' ? 'no-cache' : 'private, no-cache' };
  if (matchesTag(req.headers['if-none-match'], served.etag)) return { status: 304, headers };
  return { status: 200, headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' }, body: served.body };
}

const DESCRIPTION: RouteSchema = {
  id: 'openapi',
  summary: 'This OpenAPI 3.0.3 document',
  description: 'Answered with an `ETag`; `If-None-Match` with the current tag answers 304.',
  parameters: [headerParam('If-None-Match', 'The `ETag` of a copy the client has.')],
  success: {
    200: describedAnswer(
      'The document.',
      { type: 'object', description: 'An OpenAPI 3.0.3 document.' },
      { ETag: { $ref: '#/components/headers/ETag' } },
    ),
    304: {
      description: 'The client\u2019s copy is current.',
      headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' }, ETag: { $ref: '#/components/headers/ETag' } },
    },
  },
};

/**
 * `GET /openapi.json` (routes-decided, "OpenAPI"): the document of this admin, built once at
 * start-up, with an `ETag` and 304 on a matching `If-None-Match`. `document()` answers it once
 * it is built (the route is in the table the document describes). No route when `access` is false.
 */
export function openApiRoutes(access: OpenApiAccess, document: () => ServedDocument): RouteDefinition[] {
  if (access === false) return [];
  const path = '/openapi.json';
  const handler = (req: AdminRequest) => answer(req, document(), access);
  if (access === 'public') return [{ method: 'GET', path, auth: 'public', handler, schema: DESCRIPTION }];
  return [{ method: 'GET', path, handler, schema: DESCRIPTION }];
}
