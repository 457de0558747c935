import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController, ResolvedRelation } from '../../controllers/resolve.ts';
import { RELATION_MESSAGE_KEYS, type RelationPanelConfig } from '../../controllers/types.ts';
import { formField, formsOf, type SchemaContext } from '../schema/schema.ts';

const panel = (
  controller: ResolvedController,
  config: Partial<RelationPanelConfig> | undefined,
  buttons: readonly string[],
  t: (key: string) => string,
) => ({
  list: {
    columns: Object.entries(controller.list.columns).map(([key, column]) => ({
      key,
      label: t(column.label),
      searchable: Boolean(column.searchable),
      sortable: Boolean(column.sortable),
    })),
  },
  showSearch: config?.showSearch ?? Object.values(controller.list.columns).some((column) => column.searchable),
  toolbarButtons: [...buttons],
});

/** `GET /{ctl}/schema/relation/{name}`: RelationSchema (docs/relations.md, "The relation schema"). */
export function relationSchema(relation: ResolvedRelation, operation: OperationContext) {
  const { strings, registry } = operation.services;
  const { locale, principal } = operation;
  const ctx: SchemaContext = { strings, locale, principal, permissions: registry.permissions, services: operation.services };
  const t = (key: string) => strings.t(locale, key);
  const overrides = relation.config.messages ?? {};
  const form = (controller: ResolvedController | undefined) =>
    controller && [...controller.fields.values()].map((field) => formField(field, ctx));
  const manageForm = relation.config.manageForm ? form(relation.view) : undefined;
  const viewForm = form(relation.viewForm);
  const pivotForm = relation.pivot?.fields.size ? [...relation.pivot.fields.values()].map((field) => formField(field, ctx)) : undefined;
  const view = relation.config.view;
  return {
    name: relation.name,
    label: t(relation.label),
    kind: relation.kind,
    deferrable: relation.deferrable,
    view: panel(relation.view, view, [...relation.buttons], t),
    manage: panel(relation.manage, relation.config.manage, relation.config.manage?.toolbarButtons ?? [], t),
    messages: Object.fromEntries(
      RELATION_MESSAGE_KEYS.map((key) => [key, formsOf(strings, locale, overrides[key] ?? `backend::relation.${key}`)]),
    ),
    ...(manageForm ? { manageForm } : {}),
    ...(viewForm ? { viewForm } : {}),
    ...(pivotForm ? { pivotForm } : {}),
  };
}
