export { AdminCore, type CoreOptions } from './core.ts';
export type { AdminConfig, ResolvedConfig, Logger } from './config/types.ts';
export { ConfigError } from './config/errors.ts';
export { resolveConfig, consoleLogger } from './config/resolve.ts';
export type { DatabaseConfig } from './database/config.ts';
export { openDatabase, type Database } from './database/open.ts';
export { startEmbedded } from './database/embedded.ts';
export { coreMigrations } from './migrations/index.ts';
export * from './errors/index.ts';
export { ok, toErrorResponse, type ErrorBody } from './http/envelope.ts';
export { runRoute, presentedToken } from './http/pipeline.ts';
export { SESSION_COOKIE, serializeCookie, readCookie } from './http/cookies.ts';
export type {
  AdminRequest,
  AdminResponse,
  CookieInstruction,
  HttpMethod,
  RouteDefinition,
  RouteHandler,
  UploadedFile,
} from './http/types.ts';
export {
  Strings,
  mergeStringTables,
  negotiateLocale,
  type LangBundle,
  type Message,
  type Messages,
  type StringTable,
  type PluralForms,
} from './i18n/strings.ts';
export {
  definePlugin,
  pluginCode,
  type PluginDefinition,
  type PermissionDefinition,
  type NavigationDefinition,
  type ControllerDefinition,
  type PluginRouteDefinition,
} from './plugins/define.ts';
export { Registry, RESERVED_VENDOR_SEGMENTS } from './plugins/registry.ts';
export { backendPlugin, MANAGE_ADMINS } from './backend-plugin.ts';
export { Admin, Role, Session, ApiToken, type IAdmin, type IRole, type PermissionMap, type AdminMetadata } from './auth/entities.ts';
export { hashPassword, verifyPassword, MIN_PASSWORD_LENGTH } from './auth/passwords.ts';
export { hasPermission, hasPermissions } from './auth/permissions.ts';
export type { Principal, PrincipalAdmin } from './auth/principal.ts';
export { normalizeLoginKey, DEFAULT_THROTTLE, type ThrottleConfig } from './auth/throttle.ts';
export { LocalDiskStorage, newBlobKey, type Storage } from './storage/storage.ts';
export { StoredFile } from './storage/entities.ts';
export { renderShell, shellSecurityHeaders } from './shell/shell.ts';
export { validateBody, isPlainObject } from './validation/body.ts';
export { Migration } from '@mikro-orm/migrations';
export {
  defineController,
  ROW_STATES,
  type ControllerConfig,
  type ControllerHooks,
  type FieldConfig,
  type FormConfig,
  type ListConfig,
  type ListColumnConfig,
  type ListFilterConfig,
  type Scope,
  type ScopeContext,
  type SaveContext,
  type Condition,
  type RowState,
} from './controllers/types.ts';
export type { ResolvedController, ResolvedField } from './controllers/resolve.ts';
export { BUILTIN_FIELD_TYPES, FieldError, type FieldType } from './fields/index.ts';
export * from './behaviors/actions/index.ts';
export * from './behaviors/partials/index.ts';
export * from './fields/plugin-types.ts';
export * from './assets/index.ts';
export * from './markdown/index.ts';
export * from './settings/index.ts';
