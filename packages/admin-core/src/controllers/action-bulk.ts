import type { ControllerConfig } from './types.ts';

/** A bulk action as the list offers it: its name, and its label and confirm question (string keys or text). */
export interface OfferedBulkAction {
  name: string;
  label: string;
  confirm?: string;
}

/**
 * The bulk actions a list offers and routes (docs/actions.md, "Bulk actions declared once"): every
 * `actions.bulk` entry in declaration order, or, when the list declares `bulkActions`, the entries
 * it names in its order (a registered action it leaves out is hidden: neither offered nor routed).
 * A list entry's `label` and `confirm` win over the action's own. A singleton has none. Names
 * without a registered action are left out here; start-up refuses them (check.ts).
 */
export function offeredBulkActions(config: Pick<ControllerConfig, 'actions' | 'list' | 'singleton'>): OfferedBulkAction[] {
  if (config.singleton === true) return [];
  const registered = config.actions?.bulk ?? {};
  const declared: Array<{ name: string; label?: string; confirm?: string }> =
    config.list?.bulkActions ?? Object.keys(registered).map((name) => ({ name }));
  const offered: OfferedBulkAction[] = [];
  for (const entry of declared) {
    if (!Object.hasOwn(registered, entry.name)) continue;
    const action = registered[entry.name]!;
    const label = entry.label ?? action.label ?? entry.name;
    const confirm = entry.confirm ?? action.confirm;
    offered.push({ name: entry.name, label, ...(confirm !== undefined ? { confirm } : {}) });
  }
  return offered;
}
