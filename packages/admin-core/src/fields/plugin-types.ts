/**
 * Plugin field types (spec 4.10, 4.2, 4.4; docs/field-types.md "Plugin field types"): a plugin
 * registers a field type by alias with its element, options, client assets, decode/encode and an
 * optional upload handler. The registry checks and adds them (`addPluginFieldTypes`); the engine
 * uses them like built-in types.
 */
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
} from './plugin/define.ts';
export { pluginFieldTypeOf, PluginFieldTypeFailure, type PluginFieldType } from './plugin/field-type.ts';
export { addPluginFieldTypes } from './plugin/register.ts';
export { describeFieldType, fieldTypeRoutes, formAssets } from './plugin/routes.ts';
export { fieldUploadRoutes, PLUGIN_UPLOAD_FIELD } from './plugin/upload.ts';
export { fieldTypeStrings } from './plugin/strings.ts';
export { BUILTIN_FIELD_TYPE_NAMES, isPluginFieldType } from './config.ts';
