import type { PluginRouteDefinition, PluginRouteOpenApi } from '@cms/admin-core';
import { rssFeed } from './feed/rss.ts';
import { MEDIA_UPLOAD_FIELD, MEDIA_UPLOAD_MAX_BYTES, MEDIA_UPLOAD_PATH, uploadMedia } from './media/upload.ts';
import type { ResolvedJournalOptions } from './options.ts';
import { JOURNAL_PERMISSIONS } from './permissions.ts';

/**
 * The journal's routes outside the admin prefix (docs/journal.md): the media upload, for a
 * signed-in admin who may manage posts (Bearer, or the cookie with `X-Requested-With`), and the
 * anonymous RSS feed. The upload's 10240 KB limit is enforced while the body streams by the
 * core's multipart reader (the route's `upload`), and checked again by the handler.
 */
const MEDIA_UPLOAD: PluginRouteOpenApi = {
  summary: 'Upload an image for a post',
  description:
    'One image in `file` (at most 10240 KB; JPEG, PNG, GIF or WebP, its extension naming the type of its bytes) and an optional `folder` below `journal/`. The image is stored as uploaded, its metadata removed losslessly, under its uploaded name (the extension\u2019s case kept). A taken name gets a numbered suffix. Every refusal is a 422 keyed by field; nothing is stored. 429 when too much image work waits.',
  requestBody: {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: [MEDIA_UPLOAD_FIELD],
          additionalProperties: false,
          properties: {
            [MEDIA_UPLOAD_FIELD]: { type: 'string', format: 'binary', description: `At most ${MEDIA_UPLOAD_MAX_BYTES} bytes.` },
            folder: {
              type: 'string',
              description: 'At most 100 characters of folder segments below `journal/` separated by `/`, for example `2024/launch`.',
            },
          },
        },
      },
    },
  },
  responses: {
    '201': {
      description: 'The stored image: its public URL and its storage path.',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['data', 'meta'],
            additionalProperties: false,
            properties: {
              data: {
                type: 'object',
                required: ['url', 'path'],
                additionalProperties: false,
                properties: { url: { type: 'string' }, path: { type: 'string' } },
              },
              meta: { type: 'object', additionalProperties: false },
            },
          },
        },
      },
    },
  },
  errors: [429],
};

const RSS_FEED: PluginRouteOpenApi = {
  summary: 'The RSS 2.0 feed of published posts',
  description:
    'Anonymous. The newest published posts, the channel from the journal settings. `If-None-Match` (or `If-Modified-Since`) answers 304 when the feed did not change. Without a configured site address the links come from the request (`Host`; `X-Forwarded-Host` and `X-Forwarded-Proto` only behind a trusted proxy): the answer is then private to the client and names those headers in `Vary`.',
  parameters: [
    { name: 'If-None-Match', in: 'header', schema: { type: 'string' } },
    { name: 'If-Modified-Since', in: 'header', schema: { type: 'string' } },
  ],
  responses: {
    '200': {
      description: 'The feed.',
      headers: {
        ETag: { schema: { type: 'string' } },
        'Last-Modified': { schema: { type: 'string' } },
        'Cache-Control': { schema: { type: 'string' } },
        Vary: {
          schema: { type: 'string' },
          description: 'The request headers the links were read from, when no site address is configured.',
        },
      },
      content: { 'application/rss+xml': { schema: { type: 'string' } } },
    },
    '304': { description: 'The feed did not change since the tag or date the request named.' },
  },
};

/** The journal's routes; the feed's links use the host's `siteUrl` when the `rss_link` setting is empty. */
export const journalRoutes = (options: Pick<ResolvedJournalOptions, 'siteUrl'>): PluginRouteDefinition[] => [
  {
    method: 'POST',
    path: MEDIA_UPLOAD_PATH,
    auth: 'backend',
    permissions: [JOURNAL_PERMISSIONS.accessPosts],
    body: 'multipart',
    upload: { field: MEDIA_UPLOAD_FIELD, maxBytes: MEDIA_UPLOAD_MAX_BYTES },
    handler: uploadMedia,
    openapi: MEDIA_UPLOAD,
  },
  {
    method: 'GET',
    path: '/_journal/rss.xml',
    auth: 'public',
    handler: (req, ctx) => rssFeed(req, ctx, { siteUrl: options.siteUrl }),
    openapi: RSS_FEED,
  },
];
