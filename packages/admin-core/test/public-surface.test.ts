import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The three entry points of `@cms/admin-core` (docs/architecture.md, "Public surface"): the
 * names each exports are listed here on purpose, so that a change to the surface is a change to
 * this test. Values are read from the loaded module; type-only names from the entry's export
 * lists, which must name every export (no `export *`).
 */

const ENTRIES = {
  '@cms/admin-core': { file: 'index.ts', load: () => import('../src/index.ts') },
  '@cms/admin-core/adapter': { file: 'adapter.ts', load: () => import('../src/adapter.ts') },
  '@cms/admin-core/testing': { file: 'testing.ts', load: () => import('../src/testing.ts') },
} as const;

const EXPECTED: Record<keyof typeof ENTRIES, { values: string[]; types: string[] }> = {
  '@cms/admin-core': {
    values: [
      'ACTION_DATA_MAX_BYTES',
      'ASSETS_TOTAL_MAX_BYTES',
      'ASSET_MAX_BYTES',
      'Admin',
      'AdminError',
      'BUILTIN_TOOLBAR_BUTTONS',
      'CONFIG_ERROR_CODES',
      'ConfigError',
      'Conflict',
      'ERROR_CODES',
      'FieldError',
      'Forbidden',
      'IMAGE_EXTENSIONS',
      'MANAGE_ADMINS',
      'MIN_PASSWORD_LENGTH',
      'Migration',
      'NO_ROWS',
      'NotFound',
      'PARTIAL_LIMITS',
      'PLUGIN_UPLOAD_MAX_BYTES',
      'ROW_STATES',
      'S3Storage',
      'SYSTEM_ACTOR',
      'TooManyRequests',
      'Unauthorized',
      'Validation',
      'WIDGET_PAYLOAD_MAX_BYTES',
      'adminsWithPermission',
      'attachFile',
      'consoleLogger',
      'defineActions',
      'defineController',
      'definePlugin',
      'definePluginFieldType',
      'defineStrings',
      'dropListIndexes',
      'dropWriteNotifications',
      'hasPermission',
      'hasPermissions',
      'hashPassword',
      'imageWork',
      'inspectImage',
      'isAdminError',
      'isDecodableImage',
      'isPlainObject',
      'mergeStringTables',
      'ok',
      'partialMarkdown',
      'searchIndexes',
      'sniffImage',
      'sortIndexes',
      'withoutMetadata',
      'writeNotifications',
    ],
    types: [
      'ActionContext',
      'ActionFile',
      'ActionFileInput',
      'ActionFiles',
      'ActionOutcome',
      'ActionRecordRef',
      'AdminConfig',
      'AdminMetadata',
      'AdminRequest',
      'AdminResponse',
      'AdminServices',
      'AttachFileInput',
      'AuthedRequest',
      'BulkActionDefinition',
      'BulkActionOutcome',
      'Condition',
      'ConfigErrorCode',
      'ConfigErrorPlace',
      'ControllerActions',
      'ControllerConfig',
      'ControllerDefinition',
      'ControllerHooks',
      'DefinedStrings',
      'DatabaseConfig',
      'DuplicateConfig',
      'DuplicateOptions',
      'ErrorCode',
      'ErrorDetails',
      'ErrorKind',
      'FieldConfig',
      'FieldDeclaration',
      'FieldNotice',
      'FieldWriteRule',
      'FileSource',
      'FormConfig',
      'FormDeclaration',
      'IAdmin',
      'InspectedImage',
      'ListColumnConfig',
      'ListConfig',
      'ListDeclaration',
      'ListFilterConfig',
      'LocalAccountInput',
      'LocalActor',
      'LocalApi',
      'LocalCreateInput',
      'LocalListQuery',
      'LocalOperations',
      'LocalTransaction',
      'LocalOptions',
      'LocalPreferencesInput',
      'LocalReorderNode',
      'LocalUpdateInput',
      'Logger',
      'MarkdownBudget',
      'Message',
      'Messages',
      'NavigationDefinition',
      'OperationContext',
      'PartialConfig',
      'PartialContext',
      'PartialNode',
      'PartialView',
      'PermissionDefinition',
      'PermissionMap',
      'PluginAssetsDefinition',
      'PluginDefinition',
      'PluginErrorCode',
      'PluginFieldDecodeContext',
      'PluginFieldEncodeContext',
      'PluginFieldOption',
      'PluginFieldTypeDefinition',
      'PluginFieldUpload',
      'PluginFieldUploadContext',
      'PluginOpenApiSchema',
      'PluginRouteDefinition',
      'PluginRouteOpenApi',
      'PluginUploadedFile',
      'PluralForms',
      'Principal',
      'PrincipalAdmin',
      'RecordActionDefinition',
      'RelationDeclaration',
      'RequestContext',
      'RowState',
      'S3StorageConfig',
      'SaveContext',
      'Scope',
      'ScopeContext',
      'SettingsConfig',
      'SettingsDefinition',
      'SettingsEnv',
      'SettingsFormDefinition',
      'SettingsService',
      'SniffedImage',
      'Storage',
      'StringKeyOf',
      'StringTable',
      'SuperuserInput',
      'SuperuserOutcome',
      'TableCache',
      'TableCacheOptions',
      'ThrottleConfig',
      'ToolbarActionDefinition',
      'WidgetActionDefinition',
      'WidgetActionInput',
      'WidgetActionOutcome',
      'WriteContext',
    ],
  },
  '@cms/admin-core/adapter': {
    values: [
      'AdminCore',
      'JSON_LIMIT_BYTES',
      'SESSION_COOKIE',
      'ok',
      'presentedToken',
      'readCookie',
      'renderShell',
      'runRoute',
      'serializeCookie',
      'shellSecurityHeaders',
      'toErrorResponse',
    ],
    types: [
      'AdapterRequest',
      'AdapterResponse',
      'AdminConfig',
      'AdminRegistry',
      'AdminRequest',
      'AdminResponse',
      'AuthedRequest',
      'CookieInstruction',
      'CoreOptions',
      'ErrorBody',
      'HttpMethod',
      'PublicRouteHandler',
      'RegisteredController',
      'Registry',
      'RouteDefinition',
      'RouteHandler',
      'UploadedFile',
    ],
  },
  '@cms/admin-core/testing': {
    values: ['startTestAdmin'],
    types: ['SignInOptions', 'StartedTestAdmin', 'TestAdminOptions', 'TestClient', 'TestRequestOptions', 'TestResponse'],
  },
};

/** The names an entry's `export { … } from` and `export type { … } from` lists declare. */
function declaredExports(source: string): { values: Set<string>; types: Set<string> } {
  const values = new Set<string>();
  const types = new Set<string>();
  for (const statement of source.match(/^export\b[^;]*;/gm) ?? []) {
    const list = /^export\s+(type\s+)?\{([^}]*)\}(?:\s+from\s+'[^']+')?;$/.exec(statement);
    if (!list) throw new Error(`An entry point lists its exports by name; found: ${statement}`);
    for (const item of list[2]!
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const name = item
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop()!;
      (list[1] || item.startsWith('type ') ? types : values).add(name);
    }
  }
  return { values, types };
}

const sorted = (names: Iterable<string>) => [...names].sort();

describe('the public surface of @cms/admin-core', () => {
  it.each(Object.keys(ENTRIES) as Array<keyof typeof ENTRIES>)('%s exports exactly the listed names', async (entry) => {
    const { file, load } = ENTRIES[entry];
    const source = readFileSync(new URL(`../src/${file}`, import.meta.url), 'utf8');
    const declared = declaredExports(source);
    const values = sorted(Object.keys(await load()));
    expect(values).toEqual(sorted(declared.values));
    expect({ values, types: sorted([...declared.types].filter((name) => !declared.values.has(name))) }).toEqual({
      values: sorted(EXPECTED[entry].values),
      types: sorted(EXPECTED[entry].types),
    });
  });
});
