import { hasPermissions } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { ResolvedController, ResolvedField } from './resolve.ts';
import type { OperationContext } from '../context/operation.ts';
import { offeredBulkActions } from './action-bulk.ts';
import { recordActionEntries } from './duplicate-config.ts';
import { BUILTIN_TOOLBAR_BUTTONS, type BulkAction, type RecordAction, type ToolbarAction } from './action-config.ts';

/*
 * The lists of actions served to the admin application (docs/actions.md, "Lists of actions (per
 * admin)"): each filtered for the principal with the same permission check the action routes
 * make, so an admin is never offered an action that would answer 403.
 */

/**
 * `meta.actions` of a shown record: the record actions the principal may run and that apply to
 * it, in declaration order. Always an array (`[]` when none), as every record answer has served.
 */
export function recordActionsFor(
  controller: ResolvedController,
  record: Record<string, unknown>,
  ctx: Pick<OperationContext, 'principal' | 't'>,
): RecordAction[] {
  const t = (key: string) => ctx.t(key);
  const actions: RecordAction[] = [];
  // The declared ones, then the built-in `duplicate` when the controller opts in (docs/actions.md, "Duplicate").
  for (const [name, action] of recordActionEntries(controller.config)) {
    if (!hasPermissions(ctx.principal, action.permissions)) continue;
    if (action.appliesTo && !action.appliesTo(record)) continue;
    actions.push({
      name,
      label: t(action.label),
      ...(action.confirm ? { confirm: t(action.confirm) } : {}),
      ...(action.danger === true ? { danger: true as const } : {}),
    });
  }
  return actions;
}

/**
 * The list schema's `bulkActions` (docs/actions.md, "Bulk actions declared once") and `toolbarActions` (in `toolbar.buttons`
 * order), filtered for the principal; `toolbarButtons` is the declared buttons without the
 * toolbar actions the principal may not run, so no list names an action it cannot use.
 */
export function listActions(
  controller: ResolvedController,
  ctx: Pick<OperationContext, 'principal' | 't'>,
): { bulkActions: BulkAction[]; toolbarActions: ToolbarAction[]; toolbarButtons: string[] } {
  const { principal } = ctx;
  const t = (key: string) => ctx.t(key);
  const registered = controller.config.actions ?? {};
  const bulkActions = offeredBulkActions(controller.config)
    .filter((offered) => hasPermissions(principal, registered.bulk![offered.name]!.permissions))
    .map((offered) => ({ name: offered.name, label: t(offered.label), ...(offered.confirm ? { confirm: t(offered.confirm) } : {}) }));
  const toolbarActions: ToolbarAction[] = [];
  const toolbarButtons: string[] = [];
  for (const name of controller.list.toolbar?.buttons ?? [...BUILTIN_TOOLBAR_BUTTONS]) {
    if (BUILTIN_TOOLBAR_BUTTONS.includes(name)) {
      toolbarButtons.push(name);
      continue;
    }
    const action = Object.hasOwn(registered.toolbar ?? {}, name) ? registered.toolbar![name]! : undefined;
    if (!action || !hasPermissions(principal, action.permissions)) continue;
    toolbarActions.push({ name, label: t(action.label) });
    toolbarButtons.push(name);
  }
  return { bulkActions, toolbarActions, toolbarButtons };
}

/** Whether the form offers this field to the principal: a widget only when its action is permitted. */
export function widgetPermitted(controller: ResolvedController, field: ResolvedField, principal: Principal | undefined): boolean {
  if (field.type.name !== 'widget') return true;
  const action = controller.config.actions?.widget?.[field.config.action as string];
  return action !== undefined && hasPermissions(principal, action.permissions);
}
