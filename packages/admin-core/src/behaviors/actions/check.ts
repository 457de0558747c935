import { onlyKeys, type At } from '../../controllers/check-list.ts';
import { isObject } from '../../validation/values.ts';
import type { ControllerConfig } from '../../controllers/types.ts';
import { BUILTIN_TOOLBAR_BUTTONS } from '../../controllers/action-config.ts';

const KINDS = ['record', 'bulk', 'toolbar', 'widget'] as const;
type Kind = (typeof KINDS)[number];

/** Keys an action definition of each kind may have; `run` is required everywhere. */
const KEYS: Record<Kind, readonly string[]> = {
  record: ['label', 'confirm', 'danger', 'permissions', 'appliesTo', 'run'],
  bulk: ['label', 'confirm', 'permissions', 'run'],
  toolbar: ['label', 'permissions', 'transaction', 'run'],
  widget: ['permissions', 'run'],
};

/** An action name is one URL path segment the router matches as it is: no encoding needed. */
const ACTION_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

function checkDefinition(at: At, kind: Kind, name: string, action: unknown, permissionCodes: ReadonlySet<string>): void {
  const where = `actions.${kind}.${name}`;
  if (!ACTION_NAME.test(name))
    throw at(
      'action_name_invalid',
      where,
      `"${name}" is not a valid action name`,
      'Use letters, digits, "_" and "-", starting with a letter (at most 64 characters): it is a URL path segment.',
    );
  onlyKeys(at, where, action, KEYS[kind], `{ ${KEYS[kind].join(', ')} }`);
  if (typeof action.run !== 'function')
    throw at('controller_value_invalid', `${where}.run`, 'an action needs a `run` function', 'Pass the function that does the work.');
  if (kind === 'record' || kind === 'toolbar') {
    if (typeof action.label !== 'string' || action.label === '')
      throw at(
        'controller_value_invalid',
        `${where}.label`,
        'a non-empty string is required',
        'Use a string key such as "acme.shop::orders.ship".',
      );
  }
  if (kind === 'bulk' && action.label !== undefined && (typeof action.label !== 'string' || action.label === ''))
    throw at(
      'controller_value_invalid',
      `${where}.label`,
      'must be a non-empty string',
      'Use a string key such as "acme.shop::orders.ship".',
    );
  if (action.confirm !== undefined && (typeof action.confirm !== 'string' || action.confirm === ''))
    throw at('controller_value_invalid', `${where}.confirm`, 'must be a non-empty string', 'Use a string key or text.');
  if (action.danger !== undefined && typeof action.danger !== 'boolean')
    throw at('controller_value_invalid', `${where}.danger`, 'must be true or false', 'Use a boolean.');
  if (action.transaction !== undefined && typeof action.transaction !== 'boolean')
    throw at(
      'controller_value_invalid',
      `${where}.transaction`,
      'must be true or false',
      'Use `false` for an action that must not hold a transaction while it waits.',
    );
  if (action.appliesTo !== undefined && typeof action.appliesTo !== 'function')
    throw at('controller_value_invalid', `${where}.appliesTo`, 'must be a function', 'Pass `(record) => boolean`.');
  if (action.permissions !== undefined) {
    if (!Array.isArray(action.permissions) || !action.permissions.every((code) => typeof code === 'string')) {
      throw at(
        'controller_value_invalid',
        `${where}.permissions`,
        'must be a list of permission codes',
        'Use for example `["acme.shop.ship_orders"]`.',
      );
    }
    const unknown = action.permissions.find((code: string) => !permissionCodes.has(code));
    if (unknown !== undefined)
      throw at(
        'permission_unknown',
        `${where}.permissions`,
        `unknown permission "${unknown}"`,
        "Declare it in some plugin's `permissions`.",
      );
  }
}

/** Names listed twice in one list of buttons or bulk actions. */
const duplicate = (names: string[]) => names.find((name, index) => names.indexOf(name) !== index);

/**
 * Start-up check of `actions` against the list and the form: the shape of every definition, and
 * that every declared bulk action, toolbar button and widget field names a registered action of
 * its kind, and every registered action is reachable (one that no list or field declares could
 * never run: a leftover or a typo).
 */
export function checkActions(at: At, config: ControllerConfig, permissionCodes: ReadonlySet<string>): void {
  const actions = config.actions ?? {};
  onlyKeys(at, 'actions', actions, KINDS, '{ record?, bulk?, toolbar?, widget? }');
  for (const kind of KINDS) {
    const byName = (actions as Record<string, unknown>)[kind];
    if (byName === undefined) continue;
    if (!isObject(byName))
      throw at(
        'controller_value_invalid',
        `actions.${kind}`,
        'must be an object of action name to action',
        `Use for example \`{ ${kind === 'widget' ? 'suggestPrice' : 'publish'}: { …, run } }\`.`,
      );
    for (const [name, action] of Object.entries(byName)) checkDefinition(at, kind, name, action, permissionCodes);
  }
  const has = (kind: Kind, name: string) => Object.hasOwn(actions[kind] ?? {}, name);
  const singleton = config.singleton === true;

  // Bulk actions are declared once, under `actions.bulk`; `list.bulkActions`, when present, orders
  // them and hides those it leaves out (docs/actions.md, "Bulk actions declared once").
  const listed = config.list?.bulkActions;
  const bulkNames = (listed ?? []).map((action) => action.name);
  const twice = duplicate(bulkNames);
  if (twice !== undefined)
    throw at('action_duplicate', 'list.bulkActions', `the bulk action "${twice}" is declared twice`, 'Declare each bulk action once.');
  bulkNames.forEach((name, index) => {
    if (!has('bulk', name))
      throw at(
        'action_unknown',
        `list.bulkActions.${index}.name`,
        `no bulk action "${name}" is registered`,
        `Register it under \`actions.bulk.${name}\`, or remove it from the list.`,
      );
  });
  for (const [name, action] of Object.entries(actions.bulk ?? {})) {
    if (singleton)
      throw at(
        'action_unreachable',
        `actions.bulk.${name}`,
        'a singleton has no list, so the bulk action can never run',
        'Remove the action.',
      );
    const index = bulkNames.indexOf(name);
    if (listed !== undefined && index < 0) continue; // hidden by the list
    if (action.label === undefined && (index < 0 || !listed![index]!.label))
      throw at(
        'action_label_missing',
        `actions.bulk.${name}.label`,
        'the bulk action has no label',
        `Give it \`label: "…"\` (or a label in its \`list.bulkActions\` entry).`,
      );
  }

  const buttons = config.list?.toolbar?.buttons ?? [];
  const again = duplicate(buttons);
  if (again !== undefined)
    throw at('action_duplicate', 'list.toolbar.buttons', `the button "${again}" is listed twice`, 'List each button once.');
  buttons.forEach((name, index) => {
    if (BUILTIN_TOOLBAR_BUTTONS.includes(name)) return;
    if (!has('toolbar', name))
      throw at(
        'action_unknown',
        `list.toolbar.buttons.${index}`,
        `"${name}" is neither a built-in button (${BUILTIN_TOOLBAR_BUTTONS.join(', ')}) nor a registered toolbar action`,
        `Register it under \`actions.toolbar.${name}\`, or remove it.`,
      );
  });
  for (const name of Object.keys(actions.toolbar ?? {})) {
    if (BUILTIN_TOOLBAR_BUTTONS.includes(name))
      throw at(
        'action_name_reserved',
        `actions.toolbar.${name}`,
        `"${name}" is a built-in toolbar button`,
        'Give the action another name.',
      );
    if (singleton || !buttons.includes(name))
      throw at(
        'action_unreachable',
        `actions.toolbar.${name}`,
        'the toolbar action is not listed in `list.toolbar.buttons`, so it can never run',
        `Add "${name}" to \`list.toolbar.buttons\`, or remove the action.`,
      );
  }

  const widgetActions = new Set<string>();
  for (const [field, definition] of Object.entries(config.form?.fields ?? {})) {
    if (definition?.type !== 'widget' || typeof definition.action !== 'string') continue;
    if (!has('widget', definition.action))
      throw at(
        'action_unknown',
        `form.fields.${field}.action`,
        `no widget action "${definition.action}" is registered`,
        `Register it under \`actions.widget.${definition.action}\`.`,
      );
    widgetActions.add(definition.action);
  }
  for (const name of Object.keys(actions.widget ?? {})) {
    if (!widgetActions.has(name))
      throw at(
        'action_unreachable',
        `actions.widget.${name}`,
        'no `type: widget` form field names this action, so it can never run',
        `Set \`action: "${name}"\` on a widget field, or remove the action.`,
      );
  }
}
