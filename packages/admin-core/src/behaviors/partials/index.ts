import type { At } from '../../controllers/check-list.ts';
import type { ControllerConfig } from '../../controllers/types.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import type { RouteDefinition } from '../../http/types.ts';
import type { StringTable } from '../../i18n/strings.ts';

export type { PartialConfig } from './types.ts';

/** Start-up check of `partials` and of the partial names the form and list refer to (stub). */
export function checkPartials(_at: At, _config: ControllerConfig): void {}

/** `GET /{ctl}/partials/{name}` (stub). */
export function partialRoutes(_controller: ResolvedController, _route: (r: Omit<RouteDefinition, 'permissions'>) => RouteDefinition): RouteDefinition[] {
  return [];
}

export const partialStrings: StringTable = { en: {}, de: {} };
