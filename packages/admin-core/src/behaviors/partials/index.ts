import type { EntityManager } from '@mikro-orm/postgresql';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { ok } from '../../http/envelope.ts';
import type { RouteDefinition } from '../../http/types.ts';
import type { StringTable } from '../../i18n/strings.ts';
import { renderPartial } from './render.ts';

export type { PartialConfig, PartialContext, PartialNode, PartialElement, PartialText, PartialView } from './types.ts';
export { checkPartials } from './check.ts';
export { renderPartial } from './render.ts';
export { partialNodes } from './nodes.ts';
export { partialMarkdown, type MarkdownBudget } from './markdown.ts';
export { PARTIAL_LIMITS } from './limits.ts';

/**
 * `GET /{ctl}/partials/{name}` (spec 4.4): the controller's permissions apply (`route` adds
 * them), `id` is the only query parameter, and the answer is a PartialView in the success
 * envelope. Registered for every controller: an unregistered name is the 404 of `renderPartial`.
 */
export function partialRoutes(
  controller: ResolvedController,
  route: (r: Omit<RouteDefinition, 'permissions'>) => RouteDefinition,
): RouteDefinition[] {
  return [
    route({
      method: 'GET',
      path: `/${controller.address}/partials/:name`,
      query: ['id'],
      handler: async (req, core) =>
        ok(
          await renderPartial(
            controller,
            req.params.name!,
            { id: req.query.id },
            {
              principal: req.principal!,
              em: core.db.orm.em.fork() as EntityManager,
              strings: core.strings,
              locale: req.locale,
              locales: core.config.locales,
            },
          ),
        ),
    }),
  ];
}

export const partialStrings: StringTable = {
  en: {
    'partials.id_not_accepted': 'This partial takes no record id.',
    'partials.id_invalid': 'Must be a record id (a positive integer).',
  },
  de: {
    'partials.id_not_accepted': 'Dieser Baustein nimmt keine Datensatz-ID an.',
    'partials.id_invalid': 'Muss eine Datensatz-ID sein (eine positive ganze Zahl).',
  },
};
