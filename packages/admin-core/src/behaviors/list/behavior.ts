import type { Behavior } from '../behavior.ts';
import { listRoutes } from './routes.ts';

/** The paged, sorted, filtered list of records (docs/controllers.md, "The routes"). */
export const listBehavior: Behavior = { name: 'list', routes: listRoutes };
