import { hasPermissions } from '../auth/permissions.ts';
import type { OperationContext } from '../context/operation.ts';
import { ok } from '../http/envelope.ts';
import type { RouteDefinition } from '../http/types.ts';
import type { NavigationDefinition } from '../plugins/define.ts';
import { arrayOf } from '../schema/json.ts';
import { ok as described } from '../schema/route.ts';
import { ref } from '../schema/types.ts';

/** Where an entry without `order` sits: after the usual plugin entries, before system ones. */
const DEFAULT_ORDER = 500;

interface NavigationEntry {
  code: string;
  controller: string;
  icon: string;
  label: string;
  order: number;
  sideMenu: NavigationEntry[];
}

const mayOpen = (ctx: OperationContext, address: string): boolean => {
  const controller = ctx.services.registry.controllers.get(address);
  return controller !== undefined && hasPermissions(ctx.principal, controller.definition.permissions);
};

/**
 * The entries the principal may use, localized and ordered (`order`, then `code`). An entry shows
 * when the principal has any one of its permissions and may open its controller. A group shows
 * while some item of its side menu does: a pure group whose every item is hidden is hidden, and
 * a group whose own controller is closed to the principal opens its first visible item instead
 * (an editor of categories only still finds the journal).
 */
function buildNavigation(entries: readonly NavigationDefinition[], ctx: OperationContext): NavigationEntry[] {
  const result: NavigationEntry[] = [];
  for (const entry of entries) {
    if (entry.permissions?.length && !hasPermissions(ctx.principal, entry.permissions, 'any')) continue;
    const sideMenu = buildNavigation(entry.sideMenu ?? [], ctx);
    const isGroup = Boolean(entry.sideMenu?.length);
    if (isGroup && sideMenu.length === 0) continue;
    let controller = entry.controller ?? '';
    if (controller && !mayOpen(ctx, controller)) {
      const target = sideMenu.find((item) => item.controller);
      if (!target) continue;
      controller = target.controller;
    }
    result.push({
      code: entry.code,
      controller,
      icon: entry.icon ?? '',
      label: ctx.t(entry.label),
      order: entry.order ?? DEFAULT_ORDER,
      sideMenu,
    });
  }
  return result.sort((a, b) => a.order - b.order || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

export const navigationRoutes: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/navigation',
    handler: (_req, ctx) => ok(buildNavigation(ctx.services.registry.navigation, ctx)),
    schema: {
      id: 'navigation',
      summary: 'The navigation of the signed-in admin',
      success: described('Entries, ordered.', arrayOf(ref('NavigationEntry'))),
    },
  },
];
