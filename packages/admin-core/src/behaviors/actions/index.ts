import type { At } from '../../controllers/check-list.ts';
import type { ControllerConfig } from '../../controllers/types.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import type { RouteDefinition } from '../../http/types.ts';
import type { Principal } from '../../auth/principal.ts';
import type { Strings, StringTable } from '../../i18n/strings.ts';
import type { AdminCore } from '../../core.ts';

export type { ControllerActions } from './types.ts';

/** Start-up check of `actions` against the list and form (stub: the actions slice fills it). */
export function checkActions(_at: At, _config: ControllerConfig, _permissionCodes: ReadonlySet<string>): void {}

/** The action routes of one controller (stub). `route` adds the controller's permissions. */
export function actionRoutes(_controller: ResolvedController, _route: (r: Omit<RouteDefinition, 'permissions'>) => RouteDefinition): RouteDefinition[] {
  return [];
}

/** `meta.actions` of a shown record: the permitted record actions that apply to it (stub). */
export function recordActionsFor(_controller: ResolvedController, _record: Record<string, unknown>, _ctx: { principal: Principal; strings: Strings; locale: string; core: AdminCore }): Array<Record<string, unknown>> | undefined {
  return undefined;
}

/** The list schema's `bulkActions` and `toolbarActions`, filtered for the principal (stub). */
export function listActions(controller: ResolvedController, _principal: Principal | undefined, strings: Strings, locale: string) {
  const t = (key: string) => strings.t(locale, key);
  return {
    bulkActions: (controller.list.bulkActions ?? []).map((a) => ({ name: a.name, label: t(a.label), ...(a.confirm ? { confirm: t(a.confirm) } : {}) })),
    toolbarActions: [] as Array<{ name: string; label: string }>,
  };
}

export const actionStrings: StringTable = { en: {}, de: {} };
