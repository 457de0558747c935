import { createHash } from 'node:crypto';
import { etagMatches } from '../assets/serve.ts';
import type { RequestContext } from '../context/operation.ts';
import { ok } from '../http/envelope.ts';
import type { AdminRequest, AdminResponse, RouteDefinition } from '../http/types.ts';
import type { LangBundle } from '../i18n/strings.ts';
import { matchLocale } from '../i18n/strings.ts';
import { arrayOf, exact, string } from '../schema/json.ts';
import { ok as described, headerParam, queryParam } from '../schema/route.ts';
import { ref } from '../schema/types.ts';

/**
 * Strong ETags by bundle: `Strings` keeps one frozen bundle per locale once start-up is over, so
 * each is hashed once (a new bundle object, after another `add`, gets its own tag).
 */
const etags = new WeakMap<LangBundle, string>();
const etagOf = (bundle: LangBundle, meta: unknown): string => {
  let etag = etags.get(bundle);
  if (etag === undefined) {
    etag = `"${createHash('sha256')
      .update(JSON.stringify({ data: bundle, meta }))
      .digest('hex')
      .slice(0, 32)}"`;
    etags.set(bundle, etag);
  }
  return etag;
};

/**
 * `GET /lang` (public): every string key as plural forms for the negotiated locale, over the
 * fallback locale's keys. A supported `?locale=` wins; an unsupported one is ignored. Answered
 * with an ETag; a matching `If-None-Match` is a 304 without a body.
 */
function lang(req: AdminRequest, ctx: RequestContext): AdminResponse {
  const { config, strings } = ctx.services;
  const locale = matchLocale(req.query.locale, config.locales) ?? ctx.locale;
  const bundle = strings.bundle(locale);
  const meta = { locale, locales: config.locales };
  const headers = { 'Cache-Control': 'no-cache', Vary: 'Accept-Language', ETag: etagOf(bundle, meta) };
  if (etagMatches(req.headers['if-none-match'] || undefined, headers.ETag)) return { status: 304, headers };
  return { ...ok(bundle, meta), headers };
}

export const langRoutes: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/lang',
    auth: 'public',
    query: ['locale'],
    handler: lang,
    schema: {
      id: 'lang',
      summary: 'The admin\u2019s strings',
      description: 'Answered with an `ETag`; `If-None-Match` with the current tag answers 304.',
      parameters: [
        queryParam('locale', 'A served locale (another is ignored).', string()),
        headerParam('If-None-Match', 'The `ETag` of a copy the client has.'),
      ],
      success: {
        ...described(
          'Every string key as plural forms for the negotiated locale.',
          ref('LangBundle'),
          exact({ locale: string(), locales: arrayOf(string()) }),
          { ETag: { $ref: '#/components/headers/ETag' } },
        ),
        304: {
          description: 'The client\u2019s copy is current.',
          headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' }, ETag: { $ref: '#/components/headers/ETag' } },
        },
      },
    },
  },
];
