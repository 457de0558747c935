import type { AdminCore } from '../core.ts';
import { ok } from '../http/envelope.ts';
import type { AdminRequest, RouteDefinition } from '../http/types.ts';
import { matchLocale } from './strings.ts';

/**
 * `GET /lang` (public): every string key as plural forms for the negotiated locale, over the
 * fallback locale's keys. A supported `?locale=` wins; an unsupported one is ignored.
 */
function lang(req: AdminRequest, core: AdminCore) {
  const requested = matchLocale(req.query.locale, core.config.locales);
  const locale = requested ?? req.locale;
  return {
    ...ok(core.strings.bundle(locale), { locale, locales: core.config.locales }),
    headers: { 'Cache-Control': 'no-cache', Vary: 'Accept-Language' },
  };
}

export const langRoutes: RouteDefinition[] = [{ method: 'GET', path: '/lang', auth: 'public', query: ['locale'], handler: lang }];
