/**
 * `@cms/admin-core`: what plugin authors and hosts use (docs/architecture.md, "Public surface").
 * HTTP adapters import `@cms/admin-core/adapter` as well; tests `@cms/admin-core/testing`. Every
 * name is listed on purpose: `test/public-surface.test.ts` fails when the list changes.
 */

// Plugins and controllers.
export {
  definePlugin,
  type PluginDefinition,
  type PermissionDefinition,
  type NavigationDefinition,
  type ControllerDefinition,
  type PluginRouteDefinition,
} from './plugins/define.ts';
export type { PluginOpenApiSchema, PluginRouteOpenApi } from './plugins/types.ts';
export {
  defineController,
  ROW_STATES,
  type ControllerConfig,
  type ControllerHooks,
  type FieldConfig,
  type FieldDeclaration,
  type FieldWriteRule,
  type FormConfig,
  type FormDeclaration,
  type ListConfig,
  type ListDeclaration,
  type ListColumnConfig,
  type ListFilterConfig,
  type RelationDeclaration,
  type Scope,
  type ScopeContext,
  type WriteContext,
  type SaveContext,
  type Condition,
  type RowState,
} from './controllers/types.ts';
export { NO_ROWS } from './database/conditions.ts';
export { Migration } from '@mikro-orm/migrations';

// Actions and partials.
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
  type ActionFiles,
  type ActionFile,
  type ActionFileInput,
  type ActionRecordRef,
  type DuplicateConfig,
  type DuplicateOptions,
} from './behaviors/actions/types.ts';
export type { PartialConfig, PartialContext, PartialNode, PartialView } from './behaviors/partials/types.ts';
export { partialMarkdown, type MarkdownBudget } from './behaviors/partials/markdown.ts';
export { PARTIAL_LIMITS } from './behaviors/partials/limits.ts';

// Field types, client files and settings of plugins.
export { FieldError } from './fields/types.ts';
export {
  definePluginFieldType,
  PLUGIN_UPLOAD_MAX_BYTES,
  type FieldNotice,
  type PluginFieldDecodeContext,
  type PluginFieldEncodeContext,
  type PluginFieldOption,
  type PluginFieldTypeDefinition,
  type PluginFieldUpload,
  type PluginFieldUploadContext,
  type PluginUploadedFile,
} from './fields/plugin/define.ts';
export { ASSET_MAX_BYTES, ASSETS_TOTAL_MAX_BYTES, type PluginAssetsDefinition } from './assets/types.ts';
export type { SettingsDefinition, SettingsFormDefinition } from './settings/types.ts';
export type { SettingsConfig, SettingsEnv } from './config/settings-env.ts';
export type { SettingsService } from './settings/service.ts';

// What operations and hooks receive.
export type { AdminServices } from './context/services.ts';
export type { OperationContext, RequestContext } from './context/operation.ts';
// The local API: every operation called from code (docs/local-api.md).
export type { LocalApi, LocalOperations, LocalTransaction } from './local/api.ts';
export { SYSTEM_ACTOR, type LocalActor, type LocalOptions } from './context/local.ts';
export type { LocalCreateInput, LocalListQuery, LocalUpdateInput } from './local/records.ts';
export type { LocalReorderNode } from './local/behaviors.ts';
export type { LocalAccountInput, LocalPreferencesInput } from './local/account.ts';
export type { FileSource } from './behaviors/files/source.ts';
export type { AdminRequest, AdminResponse, AuthedRequest } from './http/types.ts';
export { ok } from './http/envelope.ts';
export type { Principal, PrincipalAdmin } from './auth/principal.ts';
export { hasPermission, hasPermissions } from './auth/permissions.ts';
export { adminsWithPermission } from './auth/permission-scope.ts';
// The image guard of uploads, for plugin routes that take images (docs/files.md, "Uploads").
export {
  IMAGE_EXTENSIONS,
  inspectImage,
  isDecodableImage,
  sniffImage,
  withoutMetadata,
  type InspectedImage,
  type SniffedImage,
} from './storage/images.ts';
export { imageWork } from './storage/image-queue.ts';
// Attaching a file from plugin code (docs/files.md, "Attaching from code").
export { attachFile, type AttachFileInput } from './behaviors/files/attach.ts';
// Core entities a plugin's entities may relate to (a post's author is an `Admin`).
export { Admin, type IAdmin, type AdminMetadata, type PermissionMap } from './auth/entities.ts';
export { MANAGE_ADMINS } from './backend-plugin.ts';
export { isPlainObject } from './validation/values.ts';

// Errors.
export {
  AdminError,
  Unauthorized,
  Forbidden,
  NotFound,
  Conflict,
  Validation,
  TooManyRequests,
  isAdminError,
  type ErrorDetails,
  type ErrorKind,
} from './errors/index.ts';
export { ERROR_CODES, type ErrorCode, type PluginErrorCode } from './errors/codes.ts';
export { CONFIG_ERROR_CODES, ConfigError, type ConfigErrorCode, type ConfigErrorPlace } from './errors/config.ts';

// Strings.
export { mergeStringTables, type Message, type Messages, type PluralForms, type StringTable } from './i18n/strings.ts';
export { defineStrings, type DefinedStrings, type StringKeyOf } from './i18n/define.ts';

// The host's configuration.
export type { AdminConfig } from './config/types.ts';
export type { Logger } from './config/resolved.ts';
export { consoleLogger } from './config/resolve.ts';
export type { DatabaseConfig } from './database/config.ts';
export type { Storage } from './storage/storage.ts';
export { S3Storage, type S3StorageConfig } from './storage/s3.ts';
export type { ThrottleConfig } from './auth/throttle.ts';
export { hashPassword, MIN_PASSWORD_LENGTH } from './auth/passwords.ts';
export type { SuperuserInput } from './auth/superuser.ts';
export type { SuperuserOutcome } from './backend/superuser.ts';

// Indexes of lists at scale, for plugin migrations (docs/performance.md, "Lists at scale").
export { searchIndexes, sortIndexes, dropListIndexes, writeNotifications, dropWriteNotifications } from './database/indexes.ts';
// A plugin's cache evicted by those notifications (docs/performance.md, "Caches of plugins").
export type { TableCache, TableCacheOptions } from './database/table-cache.ts';
