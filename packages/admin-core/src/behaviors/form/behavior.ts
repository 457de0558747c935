import type { Behavior } from '../behavior.ts';
import { formRoutes, recordRoutes } from './routes.ts';

/** Create, delete and the singleton's form (docs/controllers.md, "The routes"). */
export const formBehavior: Behavior = { name: 'form', routes: formRoutes };

/**
 * Show and update of one record (`/:id`): the form's too, but listed last so that no static
 * segment of another behaviour is read as a record id (docs/architecture.md, "Behaviours").
 */
export const recordBehavior: Behavior = { name: 'record', routes: recordRoutes };
