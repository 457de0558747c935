import type { RequestContext } from '../context/operation.ts';
import { ok } from '../http/envelope.ts';
import type { AdminRequest, RouteDefinition } from '../http/types.ts';
import { matchLocale } from '../i18n/strings.ts';
import { arrayOf, exact, string } from '../schema/json.ts';
import { ok as described, queryParam } from '../schema/route.ts';
import { ref } from '../schema/types.ts';

/**
 * `GET /lang` (public): every string key as plural forms for the negotiated locale, over the
 * fallback locale's keys. A supported `?locale=` wins; an unsupported one is ignored.
 */
function lang(req: AdminRequest, ctx: RequestContext) {
  const { config, strings } = ctx.services;
  const locale = matchLocale(req.query.locale, config.locales) ?? ctx.locale;
  return {
    ...ok(strings.bundle(locale), { locale, locales: config.locales }),
    headers: { 'Cache-Control': 'no-cache', Vary: 'Accept-Language' },
  };
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
      parameters: [queryParam('locale', 'A served locale (another is ignored).', string())],
      success: described(
        'Every string key as plural forms for the negotiated locale.',
        ref('LangBundle'),
        exact({ locale: string(), locales: arrayOf(string()) }),
      ),
    },
  },
];
