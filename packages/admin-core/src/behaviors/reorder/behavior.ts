import type { Behavior } from '../behavior.ts';
import { reorderRoutes } from './routes.ts';
import { reorderStrings } from './strings.ts';

/** Drag-and-drop order of a list's records, flat or as a tree (docs/reorder.md). */
export const reorderBehavior: Behavior = { name: 'reorder', strings: reorderStrings, routes: reorderRoutes };
