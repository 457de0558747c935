/**
 * The closed table of start-up error codes (docs/errors.md, "Start-up errors"): every
 * `ConfigError` carries one. A code names a kind of problem, not a call site; the message says
 * where it is and how to fix it. Hosts, CI scripts and tests branch on the code, never on the
 * message. The docs table is this one, row for row (a test compares them).
 *
 * Each row: what is wrong, and the usual fix (the message names the exact one).
 */
export const CONFIG_ERROR_CODES = {
  // createAdmin's own configuration
  config_not_object: ['createAdmin was given no configuration object', 'Pass the configuration object to createAdmin.'],
  config_key_unknown: ['a configuration key is not one the admin knows', 'Fix the typo; the message lists the known keys.'],
  config_value_invalid: ['a configuration value has the wrong type, shape or range', 'Use a value of the documented type and range.'],
  config_secret_short: ['`secret` is missing or shorter than 32 characters', 'Pass a random string of at least 32 characters.'],
  config_prefix_invalid: ['`backend.uri` is not a valid path prefix, or is the root', 'Use a prefix such as "/backend".'],
  config_cookie_insecure: [
    'an insecure session cookie is configured in production',
    'Serve the admin over HTTPS; remove `cookie_secure: false`.',
  ],
  config_database_missing: ['no database is configured', 'Pass `database: { url }` or `database: { embedded: { dataDir } }`.'],
  config_locale_duplicate: ['`locales` lists a locale twice', 'List each locale once.'],
  config_fallback_locale_unknown: ['`fallbackLocale` is not one of `locales`', 'Use one of the configured locales.'],
  settings_env_code_unknown: ['`settings.env` names a settings code no plugin declares', 'Name a settings code of a registered plugin.'],
  settings_env_field_invalid: [
    '`settings.env` supplies a field that is not a password or text field',
    'Supply secrets and the text values bound to them only.',
  ],
  settings_env_binding_missing: [
    'a secret from the environment is bound to a value the environment does not supply',
    'Supply the bound values too, or not the secret.',
  ],
  // The embedded database
  database_dir_locked: ['the embedded data directory is in use by another process', 'Stop the other process, or delete a stale lock file.'],
  database_dir_unwritable: [
    'the embedded data directory or its lock file cannot be created',
    'Pass a directory the process may create and write.',
  ],
  // The schema after the migrations (docs/plugin-guide.md, "Migrations")
  database_table_missing: [
    'a table of an entity is missing from the database after the migrations',
    'Write the migration (`pnpm migration:create`) and list it in `migrations`.',
  ],
  database_column_missing: [
    'a column of an entity is missing from the database after the migrations',
    'Write the migration (`pnpm migration:create`) and list it in `migrations`.',
  ],
  // The first superuser
  bootstrap_superuser_invalid: [
    '`bootstrap.superuser` lacks a login, an email address or a long enough password',
    'Give a login, an email address and a password of at least 8 characters.',
  ],
  // The admin application
  ui_bundle_invalid: [
    "the admin application's build cannot be read, or its manifest has not one entry",
    'Build the admin application again, or point `ui.dir` at a complete build.',
  ],
  // The cms-admin command
  cli_config_missing: ['the `--config` module exports no configuration', 'Export the object passed to createAdmin as the default export.'],
  cli_passwords_differ: ['the password and its repetition differ', 'Type the same password twice.'],
  // Plugin definitions
  plugin_value_invalid: [
    'a plugin, or one of its keys, has the wrong type or shape',
    'Make the plugin with definePlugin() and give each key the documented shape.',
  ],
  plugin_key_unknown: ['a plugin key is not one the admin knows', 'Fix the typo; the message lists the known keys.'],
  plugin_code_invalid: [
    "a plugin's vendor or name is not a valid address segment",
    'Use lower-case letters, digits, "-" and "_", starting with a letter.',
  ],
  plugin_vendor_reserved: ["a plugin's vendor is a reserved first path segment of the admin", 'Choose another vendor.'],
  plugin_duplicate: ['a plugin is registered twice', 'Pass each plugin once in `plugins`.'],
  plugin_option_invalid: [
    "a plugin's own options, checked by the plugin at start-up, are refused",
    "Follow the plugin's documentation of its options.",
  ],
  permission_code_invalid: ['a declared permission code is not a dotted lower-case code', 'Use a code such as "acme.shop.manage_orders".'],
  permission_duplicate: ['a permission code is declared twice', 'Declare each permission once, in one plugin.'],
  permission_label_missing: ['a declared permission has no label', 'Give it a string key or text.'],
  permission_unknown: ['a permission named somewhere is declared by no plugin', "Declare it in some plugin's `permissions`."],
  navigation_entry_invalid: [
    'a navigation or side-menu entry has the wrong shape',
    'Give each entry a code, a label and the documented keys.',
  ],
  navigation_duplicate: ['two navigation entries of a plugin share a code', 'Give each entry a unique code.'],
  route_path_invalid: ['a plugin route path is not absolute and plain', 'Start it with "/" and use no "..", "//".'],
  route_path_reserved: ["a plugin route is at or under the admin's prefix", 'Mount it elsewhere, or make it an admin controller.'],
  route_method_invalid: ['a plugin route has an unknown method', 'Use GET, POST, PUT or DELETE.'],
  route_auth_invalid: ['a plugin route\'s `auth` is not "public" or "backend"', 'Say whether the route needs a signed-in admin.'],
  route_duplicate: ['two plugin routes share a method and path', 'Choose another path.'],
  route_openapi_invalid: [
    "a plugin route's `openapi` description has the wrong shape",
    'Write `{ summary, responses, errors }` in OpenAPI 3.0.3 terms.',
  ],
  migration_invalid: ['a plugin migration is not `{ name, class }`', 'List migration classes with stable names.'],
  migration_duplicate: ['two migrations share a name', 'Prefix migration names with the plugin code.'],
  strings_invalid: ["a plugin's `strings` or `codeStrings` has the wrong shape", 'Use an object of locale to message key to message.'],
  strings_key_missing: [
    'a string key named in a definition is missing from the string tables (development)',
    'Add the key for every locale, or fix the typo.',
  ],
  asset_value_invalid: ["a plugin's `assets` is not an object of file key to file URL", 'Declare `assets: { "file.js": new URL(…) }`.'],
  asset_key_invalid: ['an asset key is not a plain relative file name', 'Use lower-case letters, digits, ".", "-" and "_", no "..".'],
  asset_type_unsupported: ["an asset's extension is not one the admin serves", 'Use one of the served extensions.'],
  asset_type_mismatch: ["an asset's content is not what its extension says", 'Give the key the extension of what the file is.'],
  asset_location_invalid: ['an asset location is not a file URL or an absolute path', "Use `new URL('./file.js', import.meta.url)`."],
  asset_not_file: ['an asset is a symbolic link, folder or device', 'Declare the file itself.'],
  asset_unreadable: ['an asset cannot be read', 'Check that the file exists and is readable.'],
  asset_changed: ['an asset changed while it was read', 'Start again once the file is written.'],
  asset_too_large: ['an asset, or all assets together, exceed the size limit', 'Split or minify it, or serve it from the host app.'],
  // Controllers and their behaviours
  controller_key_unknown: ['a controller key is not one the admin knows', 'Fix the typo; the message lists the known keys.'],
  controller_value_invalid: [
    'a controller key has the wrong type or shape',
    'Give the key the documented shape; the message shows an example.',
  ],
  controller_name_invalid: [
    "a controller's name is not a valid address segment",
    'Use lower-case letters, digits, "-" and "_", starting with a letter.',
  ],
  controller_duplicate: ['two controllers of a plugin share an address', 'Give every controller its own name.'],
  controller_unknown: [
    'a controller address names no registered controller',
    'Name `{vendor}/{plugin}/{controller}` of a registered plugin.',
  ],
  controller_entity_invalid: [
    "a controller's entity is missing, not registered, or has no integer `id`",
    "List a MikroORM entity with an integer primary key in the plugin's `entities`.",
  ],
  controller_sections_invalid: [
    "a controller's list, form, singleton and read-only keys do not fit together",
    'Declare a list and/or a form; a singleton has a form and no list.',
  ],
  controller_property_unknown: ['a key names a property or relation the entity does not have', 'Name a property of the entity.'],
  controller_property_mismatch: ['a key names a property of the wrong kind for it', 'Name a property of the kind the message asks for.'],
  controller_label_unknown: [
    'no property labels the related or listed records',
    'Name a text property in `select`, `nameFrom` or similar.',
  ],
  list_column_invalid: ['a list column option does not fit its column', 'Remove the option, or use it on a column it applies to.'],
  list_filter_invalid: ['a list filter does not fit its type or column', 'Fix the filter as the message says.'],
  list_paging_invalid: ['`recordsPerPage` is not one of `perPageOptions`', 'Add it to `perPageOptions`, or pick one of them.'],
  list_search_invalid: [
    'the list shows a search box but no column is searchable',
    'Mark a text column `searchable: true`, or remove `showSearch`.',
  ],
  list_sort_invalid: ['the default sort names a column that is not sortable', 'Mark the column `sortable: true`.'],
  list_row_states_missing: ['`rowStateColumns` is declared without `rowStates`', 'Declare `rowStates`, or remove `rowStateColumns`.'],
  reorder_sort_column_invalid: ['the reorder has no integer sort column', 'Add a `sort_order` integer, or name yours in `sortColumn`.'],
  reorder_tree_invalid: [
    "a tree reorder's parent column or depth does not fit",
    'Name a nullable self-reference as `parentColumn`; `maxDepth` is for trees.',
  ],
  relation_undeclared: ['a relation-manager field names a relation missing from `relations`', 'Declare it in `relations`.'],
  relation_unmanaged: ['a declared relation has no relation-manager field', 'Add a relation-manager field, or remove the relation.'],
  relation_manager_duplicate: ['two relation-manager fields manage one relation', 'Keep one field per relation.'],
  relation_mapping_invalid: [
    'a hasMany relation has no usable belongsTo on the other side',
    'Declare `mappedBy`, or make the foreign key nullable for `deferrable`.',
  ],
  relation_controller_mismatch: ["a relation's controller manages another entity", 'Name a controller of the related entity.'],
  relation_form_invalid: ["a relation's form holds a field it cannot have", 'Remove the field, or use a built-in field type.'],
  relation_button_invalid: ["a relation's button is unknown or does not fit the relation", 'Use a known button the relation supports.'],
  relation_pivot_invalid: [
    "a relation's pivot form does not fit its pivot entity",
    'Declare the pivot entity and name its scalar columns.',
  ],
  action_name_invalid: ['an action name is not a valid URL segment', 'Use letters, digits, "_" and "-", starting with a letter.'],
  action_name_reserved: ['an action is named like a built-in button or action', 'Give the action another name.'],
  action_duplicate: ['a bulk action or toolbar button is listed twice', 'List each once.'],
  action_unknown: ['a list, toolbar or widget names an action that is not registered', 'Register the action, or remove the reference.'],
  action_unreachable: [
    'an action is registered but nothing can run it',
    'Reference it from the list, toolbar or a widget field, or remove it.',
  ],
  action_label_missing: ['a bulk action has no label', 'Give it `label`.'],
  partial_name_invalid: ['a partial name is not one URL segment', 'Use letters, digits, "_", "-" and "." (not first).'],
  partial_unknown: ['a key names a partial the controller does not register', 'Declare it under `partials`.'],
  partial_template_invalid: ['a partial template does not parse', 'Fix the Liquid syntax.'],
  partial_template_too_long: ['a partial template is over the length limit', 'Keep a partial small; move data into the view model.'],
  // Form fields
  field_name_invalid: ['a field name is not a lower-case identifier', 'Use letters, digits and "_", starting with a letter.'],
  field_key_unknown: ['a field key is not one its type knows', 'Fix the typo; the message lists the allowed keys.'],
  field_option_invalid: [
    'a field, or one of its options, has the wrong type, shape or value',
    'Give the option the documented shape; the message shows an example.',
  ],
  field_options_conflict: [
    "a field's options contradict each other or its type",
    'Keep the options that fit together, as the message says.',
  ],
  field_reference_unknown: ['a field names another field the form does not have', 'Name a field of the same form.'],
  field_rule_invalid: [
    'a validation, comparison or write rule cannot apply to the field',
    'Remove the rule, or compare with a field of the same kind.',
  ],
  field_column_mismatch: [
    'a field does not fit the type of its column',
    'Bind a column of the type the field stores, or change the field.',
  ],
  field_binding_invalid: [
    'a relation field is bound to a property that is not a relation of the right kind',
    'Bind a relation property of the kind the field manages.',
  ],
  field_type_unknown: [
    'a field names a type that is neither built in nor registered by a plugin',
    'Use a built-in type, or register a plugin field type under that alias.',
  ],
  field_type_required: [
    'a field or filter declares no type and its property implies none',
    'Set `type`, or bind the field to a property whose column gives one (docs/controllers.md, "Defaults from the entity").',
  ],
  field_type_value_invalid: ['a plugin field type definition has the wrong shape', 'Declare the type with the documented keys.'],
  field_type_key_unknown: ['a plugin field type definition has an unknown key', 'Fix the typo; the message lists the known keys.'],
  field_type_alias_invalid: [
    'a plugin field type alias is not a valid alias',
    'Use lower-case letters, digits and "-", starting with a letter.',
  ],
  field_type_alias_taken: [
    'a plugin field type alias is built in or registered already',
    "Choose another alias, for example one starting with the plugin's name.",
  ],
  field_type_element_invalid: [
    "a plugin field type's element is not a custom element name with the plugin's prefix",
    'Name the element "<prefix><name>".',
  ],
  field_type_element_taken: ['two plugin field types render one custom element', 'Give each type its own element.'],
  field_type_asset_unknown: [
    "a plugin field type names a file that is not one of the plugin's assets",
    "Add the file to the plugin's `assets`.",
  ],
  // Settings
  settings_value_invalid: [
    'a settings entry, or one of its keys, has the wrong type or shape',
    'Declare `{ label, form: { fields } }` or `{ label, controller }`.',
  ],
  settings_key_unknown: [
    'a settings entry or settings form key is not one the admin knows',
    'Fix the typo; the message lists the known keys.',
  ],
  settings_code_invalid: [
    'a settings code is not a valid URL segment',
    'Use lower-case letters, digits, "-" and "_", starting with a letter.',
  ],
  settings_code_taken: ['a settings code is declared by another plugin already', 'Choose another code.'],
  settings_target_invalid: [
    'a settings entry has both a form and a controller, or neither',
    'Declare exactly one of `form` and `controller`.',
  ],
  settings_field_refused: [
    'a settings form holds a field type or key settings forms refuse',
    'Use a field type and keys a settings form accepts.',
  ],
  settings_secret_binding_invalid: [
    'a settings form `bindSecrets` entry does not name a password field and value fields',
    'Map each password field to fields of the form that hold a value.',
  ],
} as const satisfies Record<string, readonly [meaning: string, fix: string]>;

/** A start-up error code: a key of `CONFIG_ERROR_CODES`. */
export type ConfigErrorCode = keyof typeof CONFIG_ERROR_CODES;

export function isConfigErrorCode(code: unknown): code is ConfigErrorCode {
  return typeof code === 'string' && Object.hasOwn(CONFIG_ERROR_CODES, code);
}
