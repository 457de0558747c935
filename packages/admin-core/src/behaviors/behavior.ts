import type { BindingOwner } from '../context/binding-owner.ts';
import type { ControllerCheck } from '../controllers/resolve.ts';
import type { ControllerRouteBuilder } from '../controllers/routes.ts';
import type { StringTable } from '../i18n/strings.ts';

/**
 * One behaviour of a controller (list, form, relations, files, …) as the core wires it, the way
 * plugin capabilities are wired (`plugins/capability.ts`): `core.ts` lists them once and hands
 * each part to the code that runs it, so neither `controllers/` nor the form's save names a
 * behaviour (docs/architecture.md, "Behaviours"). Every part is optional: a behaviour has only
 * what it needs.
 */
export interface Behavior {
  /** Names it in start-up messages and in docs: `list`, `form`, `relations`, `files`, … */
  readonly name: string;
  /** Its string table, added under the `backend` namespace at start-up (`backend::files.…`). */
  readonly strings?: StringTable;
  /** The start-up check of its controller keys (`actions`, `partials`); throws a `ConfigError`. */
  readonly check?: ControllerCheck;
  /** Its routes for one controller, each with its description; the list's order is the route table's. */
  readonly routes?: ControllerRouteBuilder;
  /** The deferred bindings of the fields it owns, applied at the parent's save (`context/binding-owner.ts`). */
  readonly bindings?: BindingOwner;
}

export type { BindingOwner };
