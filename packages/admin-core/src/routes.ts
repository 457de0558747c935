import { accountRoutes } from './account/routes.ts';
import { apiTokenRoutes } from './account/token-routes.ts';
import { authRoutes } from './account/auth-routes.ts';
import type { RouteDefinition } from './http/types.ts';
import { langRoutes } from './lang/routes.ts';
import { navigationRoutes } from './navigation/routes.ts';
import { fieldTypeRoutes } from './fields/plugin/routes.ts';
import { markdownRoutes } from './markdown/routes.ts';
import { settingsRoutes } from './settings/routes.ts';

/** Every route of the admin API, once, with its full path below `{prefix}/api/v1`. */
export const coreRoutes: readonly RouteDefinition[] = [
  ...authRoutes,
  ...apiTokenRoutes,
  ...accountRoutes,
  ...langRoutes,
  ...navigationRoutes,
  ...fieldTypeRoutes,
  ...markdownRoutes,
  ...settingsRoutes,
];
