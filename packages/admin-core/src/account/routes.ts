import type { RouteDefinition } from '../http/types.ts';

/** Account routes (spec 4.1, 8): preferences, profile, avatar, personal API tokens. */
export const accountRoutes: RouteDefinition[] = [];
