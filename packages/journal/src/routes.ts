import type { PluginRouteDefinition } from '@cms/admin-core';
import { rssFeed } from './feed/rss.ts';
import { MEDIA_UPLOAD_FIELD, MEDIA_UPLOAD_MAX_BYTES, uploadMedia } from './media/upload.ts';

/**
 * The journal's routes outside the admin prefix (docs/journal.md): the media upload, for a
 * signed-in admin who may manage posts (Bearer, or the cookie with `X-Requested-With`), and the
 * anonymous RSS feed. The upload's 10240 KB limit is enforced while the body streams by the
 * core's multipart reader (the route's `upload`), and checked again by the handler.
 */
export const journalRoutes: PluginRouteDefinition[] = [
  {
    method: 'POST',
    path: '/_journal/api/v1/media/upload',
    auth: 'backend',
    permissions: ['cms.journal.access_posts'],
    body: 'multipart',
    upload: { field: MEDIA_UPLOAD_FIELD, maxBytes: MEDIA_UPLOAD_MAX_BYTES },
    handler: uploadMedia,
  },
  { method: 'GET', path: '/_journal/rss.xml', auth: 'public', handler: rssFeed },
];
