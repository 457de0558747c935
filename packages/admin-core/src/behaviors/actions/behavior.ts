import type { Behavior } from '../behavior.ts';
import { checkActions } from './check.ts';
import { checkDuplicate } from './duplicate.ts';
import { actionRoutes } from './routes.ts';
import { actionStrings } from './strings.ts';

/** Record, bulk, toolbar and widget actions, and the built-in `duplicate` (docs/actions.md). */
export const actionsBehavior: Behavior = {
  name: 'actions',
  strings: actionStrings,
  check: (at, config, ctx) => {
    checkActions(at, config, ctx.permissionCodes);
    checkDuplicate(at, config, ctx);
  },
  routes: actionRoutes,
};
