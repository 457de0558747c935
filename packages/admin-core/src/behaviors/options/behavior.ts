import type { Behavior } from '../behavior.ts';
import { optionRoutes } from './routes.ts';

/** The options of relation and dropdown fields (docs/controllers.md, "The routes"). */
export const optionsBehavior: Behavior = { name: 'options', routes: optionRoutes };
