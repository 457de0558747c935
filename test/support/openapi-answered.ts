import type { AdminCore } from '@cms/admin-core/adapter';
import { expect } from 'vitest';

/*
 * The routes a controller answers, written out from the docs' tables rather than from the route
 * builders (docs/controllers.md, "The routes", "Singletons", "Read-only controllers";
 * docs/actions.md; docs/partials.md; docs/relations.md, "Routes"; docs/files.md, "Routes" and
 * "Child forms"; docs/reorder.md; docs/field-types.md, "Uploads"). A route no value of its path
 * parameters can reach past the "not declared" 404 is not answered: the OpenAPI document must not
 * list it (docs/openapi.md).
 */

type Controller = AdminCore['controllers'] extends ReadonlyMap<string, infer C> ? C : never;
type Field = Controller['fields'] extends Map<string, infer F> ? F : never;

const own = (record: object | undefined, name: string) => record !== undefined && Object.hasOwn(record, name);
const some = <T>(values: Iterable<T>, test: (value: T) => boolean) => [...values].some(test);
const inUpdateForm = (field: Field) => {
  const contexts = field.config.context;
  return contexts === undefined || (Array.isArray(contexts) ? contexts : [contexts]).includes('update');
};

/** `METHOD /path/{param}` of every operation the controller answers, sorted. */
function answeredOperations(controller: Controller): string[] {
  const c = `/${controller.address}`;
  const config = controller.config;
  const singleton = config.singleton === true;
  const writes = config.readOnly !== true;
  const hasList = config.list !== undefined && !singleton;
  const actions = config.actions ?? {};
  const fields = [...controller.fields.values()];
  const out: string[] = [];
  const add = (when: boolean, ...operations: string[]) => {
    if (when) out.push(...operations);
  };

  add(hasList, `GET ${c}`, `GET ${c}/schema/list`);
  add(!singleton && writes, `POST ${c}`, `POST ${c}/bulk-delete`, `DELETE ${c}/{id}`);
  add(true, `GET ${c}/{id}`);
  add(writes, `PUT ${c}/{id}`);
  add(config.form !== undefined, `GET ${c}/schema/form`);
  add(singleton, `GET ${c}/singleton`);
  // Relation options: a writable relation field; filter options: a scope filter.
  add(
    fields.some((field) => field.type.name === 'relation' && !field.config.readOnly && field.relation !== undefined),
    `GET ${c}/fields/{field}/options`,
  );
  add(
    some(Object.values(controller.list.filters ?? {}), (filter) => filter.type === 'scope'),
    `GET ${c}/filters/{scope}/options`,
  );
  // Actions: a record action; a bulk action the list offers; a toolbar button naming a toolbar action; a widget naming its action.
  add(Object.keys(actions.record ?? {}).length > 0, `POST ${c}/{id}/actions/{action}`);
  const bulkNames = config.list?.bulkActions?.map((entry) => entry.name) ?? Object.keys(actions.bulk ?? {});
  add(hasList && bulkNames.some((name) => own(actions.bulk, name)), `POST ${c}/bulk/{action}`);
  add(hasList && (config.list?.toolbar?.buttons ?? []).some((name) => own(actions.toolbar, name)), `POST ${c}/toolbar/{action}`);
  add(
    fields.some((field) => field.type.name === 'widget' && typeof field.config.action === 'string'),
    `POST ${c}/widgets/{field}`,
  );
  add(Object.keys(config.partials ?? {}).length > 0, `GET ${c}/partials/{name}`);
  // Uploads of plugin field types: per field with an upload handler that an update form may change.
  for (const field of fields)
    add(
      (field.type as { upload?: unknown }).upload !== undefined && !field.config.readOnly && inUpdateForm(field),
      `POST ${c}/{id}/fields/${field.name}/upload`,
    );
  // Relations: an operation not declared has no route ("the routes of an operation not declared answer 404").
  const relations = [...controller.relations.values()];
  if (relations.length > 0) {
    const base = `${c}/{id}/relations/{name}`;
    const declares = (button: string) => relations.some((relation) => [...relation.buttons].includes(button as never));
    const pivot = relations.some((relation) => (relation.pivot?.fields.size ?? 0) > 0);
    add(true, `GET ${c}/schema/relation/{name}`, `GET ${base}`, `GET ${base}/candidates`);
    add(
      relations.some((relation) => relation.config.manageForm !== undefined || relation.viewForm !== undefined),
      `GET ${base}/records/{child}`,
    );
    add(pivot, `GET ${base}/pivot/{child}`);
    add(writes && declares('link'), `POST ${base}/link`);
    add(writes && declares('unlink'), `POST ${base}/unlink`);
    add(writes && declares('delete'), `POST ${base}/delete`);
    add(writes && declares('create'), `POST ${base}/records`);
    add(writes && declares('update'), `PUT ${base}/records/{child}`);
    add(writes && pivot, `PUT ${base}/pivot/{child}`);
    add(
      writes && relations.some((relation) => some(relation.view.fields.values(), (field) => field.type.name === 'fileupload')),
      `POST ${base}/records/{child}/files/{field}`,
    );
  }
  // Files: per fileupload field; the writes not on a read-only controller.
  if (fields.some((field) => field.type.name === 'fileupload')) {
    const base = `${c}/{id}/files/{field}`;
    add(true, `GET ${base}`, `GET ${base}/{fileId}/download`, `GET ${base}/{fileId}/thumb`);
    add(writes, `POST ${base}/reorder`, `POST ${base}`, `PUT ${base}/{fileId}`, `DELETE ${base}/{fileId}`);
  }
  add(controller.reorder !== undefined, `GET ${c}/reorder`);
  add(controller.reorder !== undefined && writes, `POST ${c}/reorder`);
  return out.sort();
}

type Document = { paths: Record<string, Record<string, { tags?: string[] } | unknown>> };

/** `METHOD /path/{param}` of every operation the document tags with the controller's address, sorted. */
function listedOperations(document: unknown, controller: Controller): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries((document as Document).paths))
    for (const [method, operation] of Object.entries(item))
      if (method !== 'servers' && (operation as { tags?: string[] }).tags?.includes(controller.address))
        out.push(`${method.toUpperCase()} ${path}`);
  return out.sort();
}

/** Every controller's listed operations are exactly the ones it answers; answers how many were compared. */
export function expectListsExactlyWhatAnswers(core: Pick<AdminCore, 'controllers' | 'openapi'>): number {
  const listed: Record<string, string[]> = {};
  const answered: Record<string, string[]> = {};
  for (const controller of core.controllers.values()) {
    listed[controller.address] = listedOperations(core.openapi.document, controller);
    answered[controller.address] = answeredOperations(controller);
  }
  // One comparison of every controller, so that a failure shows each wrongly listed (or missing) route.
  expect(listed).toEqual(answered);
  return Object.values(answered).flat().length;
}
