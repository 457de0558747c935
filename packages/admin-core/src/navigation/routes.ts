import { hasPermissions } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { AdminCore } from '../core.ts';
import { ok } from '../http/envelope.ts';
import type { AdminRequest, RouteDefinition } from '../http/types.ts';
import type { NavigationDefinition } from '../plugins/define.ts';

export interface NavigationEntry {
  code: string;
  controller: string;
  icon: string;
  label: string;
  order: number;
  sideMenu: NavigationEntry[];
}

/** An entry shows when the principal has its permissions (any one) and may open its controller. */
function visible(core: AdminCore, principal: Principal, entry: NavigationDefinition): boolean {
  if (entry.permissions?.length && !hasPermissions(principal, entry.permissions, 'any')) return false;
  if (entry.controller) {
    const controller = core.registry.controllers.get(entry.controller);
    if (!controller || !hasPermissions(principal, controller.definition.permissions)) return false;
  }
  return true;
}

export function buildNavigation(core: AdminCore, principal: Principal, locale: string, entries: readonly NavigationDefinition[]): NavigationEntry[] {
  const result: NavigationEntry[] = [];
  for (const entry of entries) {
    if (!visible(core, principal, entry)) continue;
    const sideMenu = buildNavigation(core, principal, locale, entry.sideMenu ?? []);
    // A pure group whose every item is hidden is hidden too.
    if (!entry.controller && entry.sideMenu?.length && sideMenu.length === 0) continue;
    result.push({
      code: entry.code,
      controller: entry.controller ?? '',
      icon: entry.icon ?? '',
      label: core.strings.t(locale, entry.label),
      order: entry.order ?? 500,
      sideMenu,
    });
  }
  return result.sort((a, b) => a.order - b.order || a.code.localeCompare(b.code));
}

const navigation = (req: AdminRequest, core: AdminCore) => ok(buildNavigation(core, req.principal!, req.locale, core.registry.navigation));

export const navigationRoutes: RouteDefinition[] = [{ method: 'GET', path: '/navigation', handler: navigation }];
