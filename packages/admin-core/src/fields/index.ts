/**
 * The built-in field types (docs/field-types.md): one module per type, each with its start-up
 * check, schema keys, decode (validate) and encode. The engine resolves a field's type with
 * `checkField` at start-up, then calls `decode` on save and `encode` when serving a record.
 */
export { BUILTIN_FIELD_TYPES } from './registry.ts';
export { checkField, checkFieldConfig, GENERAL_FIELD_KEYS, PLUGIN_FIELD_KEYS } from './config.ts';
export { isEmptyValue } from './common.ts';
export {
  decodeRelation,
  parseRelationIds,
  relationKindOf,
  scopedRelationLookup,
  storedRelationIds,
  type RelationLookup,
} from './relation.ts';
export { decodePermissions, isLockedFor, permissionTabs, storedPermissions } from './permissioneditor.ts';
export { sanitizeMarkdown, sanitizeRichText, SANITIZE_CONFIG } from './sanitize.ts';
export { DEFAULT_MONEY_SCALE } from './money.ts';
export { FieldError } from './types.ts';
export type {
  FieldCheckContext,
  FieldConfig,
  FieldDecodeContext,
  FieldEncodeContext,
  FieldSchemaContext,
  FieldType,
  PropertyInfo,
  RelationTarget,
  Scalar,
} from './types.ts';
