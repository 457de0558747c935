// The declaration side (what a controller's `actions` holds) lives with the other configuration
// types in `controllers/`; this behaviour's answers and limits stay here (docs/architecture.md, "Behaviours").
export type {
  ActionContext,
  ActionOutcome,
  RecordActionDefinition,
  BulkActionOutcome,
  BulkActionDefinition,
  ToolbarActionDefinition,
  WidgetActionInput,
  WidgetActionOutcome,
  WidgetActionDefinition,
  ControllerActions,
  ActionFiles,
  ActionFile,
  ActionFileInput,
  ActionRecordRef,
} from '../../controllers/action-config.ts';
export type { DuplicateConfig, DuplicateOptions } from '../../controllers/duplicate-config.ts';
export { defineActions, BUILTIN_TOOLBAR_BUTTONS } from '../../controllers/action-config.ts';

/** AdminActionResult (docs/actions.md, "Keys of each kind" and "Record actions"). */
export interface AdminActionResult {
  fill: Record<string, string | number | boolean | null>;
  message: string;
  data?: unknown;
}

/** BulkActionResult (docs/actions.md, "Bulk actions"). */
export interface BulkActionResult {
  affected: number;
  message: string;
}

/** Limits in bytes of UTF-8 JSON (docs/actions.md, "Widget actions" and "The answer's `data` (every kind)"). */
export const WIDGET_PAYLOAD_MAX_BYTES = 64 * 1024;
export const ACTION_DATA_MAX_BYTES = 256 * 1024;
