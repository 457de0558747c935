import type { Behavior } from '../behavior.ts';
import { schemaRoutes } from './routes.ts';

/** The list and form schemas a client draws from (docs/controllers.md, "The routes"). */
export const schemaBehavior: Behavior = { name: 'schema', routes: schemaRoutes };
