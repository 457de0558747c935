import type { ResolvedController, ResolvedField } from '../../controllers/resolve.ts';
import { FORM_MESSAGES, LIST_MESSAGES } from '../../controllers/types.ts';
import type { PluralForms, Strings } from '../../i18n/strings.ts';
import type { Principal } from '../../auth/principal.ts';
import type { PermissionDefinition } from '../../plugins/define.ts';
import type { OperationContext } from '../../context/operation.ts';
import type { AdminServices } from '../../context/services.ts';
import type { FormConfig } from '../../controllers/types.ts';
import { formAssets } from '../../fields/plugin/routes.ts';
import { mayWrite } from '../../fields/write.ts';
import { widgetPermitted } from '../../controllers/action-lists.ts';
import { entityDefault } from '../../controllers/entity-default.ts';

/** FormField keys served as the author wrote them (labels are localized below; docs/controllers.md, "FieldConfig"). */
const PASSTHROUGH = [
  'span',
  'size',
  'required',
  'readOnly',
  'multiple',
  'context',
  'default',
  'attributes',
  'nameFrom',
  'relation',
  'preset',
  'action',
  'widget',
  'fill',
  'path',
  'deferrable',
  'fileTypes',
  'mimeTypes',
  'maxFiles',
  'maxFilesize',
  'imageWidth',
  'imageHeight',
  'mode',
  'protected',
  'useCaption',
  'thumbOptions',
  'format',
  'displayFormat',
  'minDate',
  'maxDate',
  'firstDay',
  'yearRange',
  'ignoreTimezone',
  'twelveHour',
  'separator',
  'customTags',
  'typeOptions',
  'element',
  'translatable',
] as const;
const LOCALIZED = ['label', 'comment', 'tab', 'emptyOption', 'prompt', 'actionLabel'] as const;

/** A message as plural forms: a registered key gives its forms, plain text gives `{other}`. */
export const formsOf = (strings: Strings, locale: string, keyOrText: string): PluralForms =>
  strings.forms(locale, keyOrText) ?? { other: keyOrText };

export interface SchemaContext {
  strings: Strings;
  locale: string;
  principal?: Principal;
  permissions?: ReadonlyMap<string, PermissionDefinition>;
  services?: AdminServices;
}

export function formField(field: ResolvedField, { strings, locale, principal, permissions }: SchemaContext): Record<string, unknown> {
  const config = field.config as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { name: field.name, type: field.type.name };
  for (const key of LOCALIZED) if (typeof config[key] === 'string') out[key] = strings.t(locale, config[key] as string);
  for (const key of PASSTHROUGH) if (config[key] !== undefined) out[key] = config[key];
  // No `default` written: the column's own (`p.boolean().default(false)`), so a new record opens with it.
  const fromEntity = entityDefault(field);
  if (fromEntity !== undefined) out.default = fromEntity;
  // A field the admin may not write (docs/controllers.md, "Field-level write permissions").
  if (!mayWrite(field.config, principal)) out.readOnly = true;
  if (field.config.options) {
    out.options = Object.entries(field.config.options).map(([value, label]) => ({ label: strings.t(locale, label), value }));
  }
  const extra = field.type.schema?.(field.config, {
    t: (key, params) => strings.t(locale, key, params),
    locale,
    locales: strings.locales,
    principal,
    permissions,
    relation: field.relation,
  });
  return { ...out, ...extra };
}

/** FormMessages (docs/controllers.md, "FormConfig"): each message as plural forms, `overrides` (keys or text) over the core's. */
export const formMessages = (strings: Strings, locale: string, overrides: FormConfig['messages'] = {}) =>
  Object.fromEntries(FORM_MESSAGES.map((key) => [key, formsOf(strings, locale, overrides[key] ?? `backend::form.${key}`)]));

/** FormView (docs/controllers.md, "FormConfig" and "FieldConfig"). */
export function formSchema(controller: ResolvedController, operation: OperationContext) {
  const { strings, registry } = operation.services;
  const { locale, principal } = operation;
  const ctx: SchemaContext = { strings, locale, principal, permissions: registry.permissions, services: operation.services };
  const form = controller.config.form!;
  const base = controller.address;
  const messages = formMessages(strings, locale, form.messages);
  return {
    // A widget whose action the admin may not run is not offered (it would only answer 403).
    fields: [...controller.fields.values()]
      .filter((field) => widgetPermitted(controller, field, ctx.principal))
      .map((field) => formField(field, ctx)),
    assets: formAssets(controller, ctx.services),
    messages,
    meta: { locale },
    redirects: {
      create: {
        redirect: form.redirects?.create?.redirect ?? `${base}/update/:id`,
        redirectClose: form.redirects?.create?.redirectClose ?? base,
      },
      update: {
        redirect: form.redirects?.update?.redirect ?? `${base}/update/:id`,
        redirectClose: form.redirects?.update?.redirectClose ?? base,
      },
      default: form.redirects?.default ?? base,
    },
    ...(form.name ? { name: strings.t(locale, form.name) } : {}),
    modelClass: controller.meta.className,
    ...(form.preview ? { preview: { headerPartial: form.preview.headerPartial } } : {}),
  };
}

/** ListSchema (docs/controllers.md, "ListConfig"). `actions`: the bulk and toolbar actions already filtered for the principal. */
export function listSchema(
  controller: ResolvedController,
  ctx: Pick<OperationContext, 'services' | 'locale'>,
  actions: {
    bulkActions: Array<Record<string, unknown>>;
    toolbarActions: Array<{ name: string; label: string }>;
    toolbarButtons?: string[];
  },
) {
  const { strings } = ctx.services;
  const { locale } = ctx;
  const list = controller.list;
  const t = (key: string) => strings.t(locale, key);
  const columns = Object.entries(list.columns).map(([key, c]) => ({
    key,
    label: t(c.label),
    searchable: Boolean(c.searchable),
    sortable: Boolean(c.sortable),
    ...(c.relation ? { relation: c.relation } : {}),
    ...(controller.columns.get(key)?.labelProperty ? { select: controller.columns.get(key)!.labelProperty } : {}),
    ...(c.type ? { type: c.type } : {}),
    ...(c.type === 'money'
      ? { ...(c.currency ? { currency: c.currency } : {}), ...(c.currencyFrom ? { currencyFrom: c.currencyFrom } : {}) }
      : {}),
  }));
  const filters = Object.entries(list.filters ?? {}).map(([name, f]) => ({
    name,
    type: f.type,
    label: t(f.label),
    ...(f.column ? { column: f.column } : {}),
    ...(f.modelClass ? { modelClass: f.modelClass } : {}),
    ...(f.nameFrom ? { nameFrom: f.nameFrom } : {}),
    ...(f.type === 'scope' ? { scope: name } : {}),
    ...(f.options ? { options: Object.entries(f.options).map(([value, label]) => ({ label: t(label), value })) } : {}),
    ...(f.trueValue !== undefined ? { trueValue: f.trueValue } : {}),
    ...(f.falseValue !== undefined ? { falseValue: f.falseValue } : {}),
  }));
  const searchable = columns.some((c) => c.searchable);
  return {
    assets: { scripts: [] as string[], styles: [] as string[] },
    bulkActions: actions.bulkActions,
    columns,
    filters,
    messages: Object.fromEntries(LIST_MESSAGES.map((key) => [key, formsOf(strings, locale, `backend::list.${key}`)])),
    perPageOptions: list.perPageOptions,
    recordsPerPage: list.recordsPerPage,
    rowActions: (list.rowActions ?? []).map((a) => ({
      name: a.name,
      ...(a.label ? { label: t(a.label) } : {}),
      ...(a.url ? { url: a.url } : {}),
    })),
    searchTerm: '',
    showCheckboxes: list.showCheckboxes ?? true,
    showSearch: list.showSearch ?? searchable,
    showSetup: list.showSetup ?? false,
    showSorting: list.showSorting ?? true,
    toolbarActions: actions.toolbarActions,
    toolbarButtons: actions.toolbarButtons ?? list.toolbar?.buttons ?? ['create', 'delete'],
    ...(list.defaultSort ? { defaultSort: { ...list.defaultSort } } : {}),
    ...(list.headerPartial ? { headerPartial: list.headerPartial } : {}),
    meta: { locale },
    modelClass: controller.meta.className,
    ...(list.noRecordsMessage ? { noRecordsMessage: t(list.noRecordsMessage) } : {}),
    recordUrl: list.recordUrl ?? `${controller.address}/update/:id`,
    ...(list.searchPrompt ? { searchPrompt: t(list.searchPrompt) } : {}),
    ...(list.title ? { title: t(list.title) } : {}),
    // Only for a controller that declares a reorder (docs/reorder.md, "The list schema").
    ...(controller.reorder
      ? {
          reorder: {
            tree: controller.reorder.parentColumn !== undefined,
            maxDepth: controller.reorder.maxDepth,
            ...(controller.reorder.config.title ? { title: t(controller.reorder.config.title) } : {}),
          },
        }
      : {}),
  };
}
