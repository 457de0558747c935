import type { ResolvedField } from '../controllers/resolve.ts';

/**
 * Whether a field shows in a context (`create`, `update`, `preview`; docs/controllers.md, "FieldConfig").
 * Here, beside the field types, so that the form behaviour and the OpenAPI models both read it
 * without importing each other (docs/architecture.md, "Folders of `packages/admin-core/src`").
 */
export const inContext = (field: ResolvedField, context: 'create' | 'update' | 'preview') => {
  const contexts = field.config.context;
  if (contexts === undefined) return true;
  return (Array.isArray(contexts) ? contexts : [contexts]).includes(context);
};
