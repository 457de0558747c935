import type { PluginRouteDefinition, PluginRouteOpenApi } from '@cms/admin-core';
import { rssFeed } from './feed/rss.ts';
import { MEDIA_UPLOAD_FIELD, MEDIA_UPLOAD_MAX_BYTES, uploadMedia } from './media/upload.ts';

/**
 * The journal's routes outside the admin prefix (docs/journal.md): the media upload, for a
 * signed-in admin who may manage posts (Bearer, or the cookie with `X-Requested-With`), and the
 * anonymous RSS feed. The upload's 10240 KB limit is enforced while the body streams by the
 * core's multipart reader (the route's `upload`), and checked again by the handler.
 */
const MEDIA_UPLOAD: PluginRouteOpenApi = {
  summary: 'Upload an image for a post',
  description:
    'One image in `file` (at most 10240 KB; JPEG, PNG, GIF or WebP, re-encoded without metadata) and an optional `folder` below `journal/`. A taken name gets a numbered suffix. Every refusal is a 422 keyed by field; nothing is stored.',
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
};

const RSS_FEED: PluginRouteOpenApi = {
  summary: 'The RSS 2.0 feed of published posts',
  description:
    'Anonymous. The newest published posts, the channel from the journal settings. `If-None-Match` (or `If-Modified-Since`) answers 304 when the feed did not change.',
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
      },
      content: { 'application/rss+xml': { schema: { type: 'string' } } },
    },
    '304': { description: 'The feed did not change since the tag or date the request named.' },
  },
};

export const journalRoutes: PluginRouteDefinition[] = [
  {
    method: 'POST',
    path: '/_journal/api/v1/media/upload',
    auth: 'backend',
    permissions: ['cms.journal.access_posts'],
    body: 'multipart',
    upload: { field: MEDIA_UPLOAD_FIELD, maxBytes: MEDIA_UPLOAD_MAX_BYTES },
    handler: uploadMedia,
    openapi: MEDIA_UPLOAD,
  },
  { method: 'GET', path: '/_journal/rss.xml', auth: 'public', handler: rssFeed, openapi: RSS_FEED },
];
