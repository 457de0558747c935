export { checkActions, ACTION_NAME } from './check.ts';
export { actionRoutes, parseWidgetBody } from './routes.ts';
export { recordActionsFor, listActions } from './lists.ts';
export { runRecordAction, runBulkAction, runToolbarAction, runWidgetAction, type ActionRequest, type WidgetRequest } from './run.ts';
export { actionStrings } from './strings.ts';
export {
  defineActions,
  ACTION_DATA_MAX_BYTES,
  WIDGET_PAYLOAD_MAX_BYTES,
  BUILTIN_TOOLBAR_BUTTONS,
  type ControllerActions,
  type ActionContext,
  type ActionOutcome,
  type RecordActionDefinition,
  type BulkActionDefinition,
  type BulkActionOutcome,
  type ToolbarActionDefinition,
  type WidgetActionDefinition,
  type WidgetActionInput,
  type WidgetActionOutcome,
  type AdminActionResult,
  type BulkActionResult,
  type RecordAction,
  type BulkAction,
  type ToolbarAction,
} from './types.ts';
