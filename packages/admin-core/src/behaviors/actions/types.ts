import type { ScopeContext } from '../../controllers/types.ts';

/**
 * Controller actions (spec 2.3, 4.4): registered by name under `actions`, per kind. DRAFT shape
 * from the pre-wiring; the actions slice owns and refines this file.
 */
export interface ControllerActions<E = any> {
  record?: Record<string, unknown>;
  bulk?: Record<string, unknown>;
  toolbar?: Record<string, unknown>;
  widget?: Record<string, unknown>;
  /** Keeps `E` in the type until the real shapes use it. */
  readonly __entity?: (record: E, ctx: ScopeContext) => void;
}
