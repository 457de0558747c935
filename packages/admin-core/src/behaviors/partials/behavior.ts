import type { Behavior } from '../behavior.ts';
import { checkPartials } from './check.ts';
import { partialRoutes } from './routes.ts';
import { partialStrings } from './strings.ts';

/** Controller partials: Liquid templates served as node trees (docs/partials.md). */
export const partialsBehavior: Behavior = {
  name: 'partials',
  strings: partialStrings,
  // Parses the templates once; the route reads them from the cache keyed by this config.
  check: (at, config) => {
    checkPartials(at, config);
  },
  routes: partialRoutes,
};
