import { offeredBulkActions } from '../behaviors/actions/bulk.ts';
import type { ResolvedController, ResolvedRelation } from '../controllers/resolve.ts';
import type { RouteDefinition } from '../http/types.ts';
import { fileFields } from '../behaviors/files/field.ts';
import { FILE_UPLOAD_FIELD } from '../behaviors/files/operations.ts';
import { PLUGIN_UPLOAD_FIELD } from '../fields/plugin/upload.ts';
import { pluginFieldTypeOf } from '../fields/plugin/field-type.ts';
import { literal, anyValue, arrayOf, exact, integer, mapOf, nullable, object, string } from './schema.ts';
import { recordValue } from './fields.ts';
import { anyOf, ControllerModel, type SchemaRegistry } from './models.ts';
import {
  answer,
  binary,
  envelope,
  headerParam,
  idParam,
  jsonBody,
  multipartBody,
  namedParam,
  ok,
  pageParams,
  parentParam,
  pathParam,
  queryParam,
  SESSION_KEY,
  sessionKeyHeader,
  type Draft,
} from './ops.ts';
import { ref, type Parameter, type Schema } from './types.ts';

/*
 * The operations of a controller's routes (docs/controllers.md, "The routes"; docs/relations.md,
 * docs/files.md, docs/actions.md, docs/partials.md, docs/reorder.md), each with the concrete
 * schemas of that controller. A route is recognised by its path below `/{ctl}`.
 */

const ETAG = { ETag: { $ref: '#/components/headers/ETag' } };

/** The list query: search, sort, direction, paging and the declared filters (docs/controllers.md, "The list route"). */
function listParams(controller: ResolvedController, withFilters: boolean): Parameter[] {
  const { list } = controller;
  const columns = Object.entries(list.columns);
  const sortable = columns.filter(([, column]) => column.sortable).map(([key]) => key);
  const params: Parameter[] = [];
  if (columns.some(([, column]) => column.searchable))
    params.push(queryParam('search', 'Matched case-insensitively in every searchable column.', string({ maxLength: 200 })));
  if (sortable.length) params.push(queryParam('sort', 'A sortable column.', string({ enum: sortable })));
  params.push(queryParam('dir', 'The sort direction.', string({ enum: ['asc', 'desc'] })), ...pageParams(list.perPageOptions));
  const filters = Object.entries(list.filters ?? {});
  if (withFilters && filters.length) {
    const properties: Record<string, Schema> = {};
    for (const [name, filter] of filters) {
      const keys = Object.keys(filter.options ?? {}).map(literal);
      properties[name] =
        filter.type === 'group'
          ? string({ pattern: `^,*(?:(?:${keys.join('|')})(?:,+|$))*$`, description: 'Option values, comma-separated.' })
          : filter.type === 'switch'
            ? string({ enum: ['1', '0', 'true', 'false', ''] })
            : filter.type === 'daterange'
              ? string({
                  pattern: '^(\\d{4}-\\d{2}-\\d{2})?,(\\d{4}-\\d{2}-\\d{2})?$',
                  description: '`from,to`, each `YYYY-MM-DD` or empty.',
                })
              : string({ maxLength: 500 });
    }
    params.push({
      name: 'filter',
      in: 'query',
      style: 'deepObject',
      explode: true,
      description: 'Filters by name: `filter[<name>]=<value>`; an empty value is no filter.',
      schema: object(properties),
    });
  }
  return params;
}

/** The record actions, bulk actions, toolbar actions and widget fields a route may name. */
const actionNames = (controller: ResolvedController, kind: 'record' | 'bulk' | 'toolbar') => {
  const registered = Object.keys(controller.config.actions?.[kind] ?? {});
  if (kind === 'bulk') return offeredBulkActions(controller.config).map((a) => a.name);
  if (kind === 'toolbar') return (controller.list.toolbar?.buttons ?? []).filter((name) => registered.includes(name));
  return registered;
};

const XHR = headerParam('X-Requested-With', 'Required on every transport (for example `XMLHttpRequest`).', string({ minLength: 1 }), true);

/** Describes one route of `controller`; undefined when its path is not one the engine makes. */
export function describeControllerRoute(
  route: RouteDefinition,
  controller: ResolvedController,
  registry: SchemaRegistry,
): Draft | undefined {
  const model = new ControllerModel(controller, registry);
  const base = `/${controller.address}`;
  const rest = route.path.slice(base.length);
  const id = controller.address.replace(/\//g, '.');
  const name = controller.address;
  const key = `${route.method} ${rest.replace(/\/[^/:]+\/upload$/, '/<field>/upload')}`;

  switch (key) {
    case 'GET ':
      return {
        id: `${id}.list`,
        summary: `List ${name}`,
        parameters: listParams(controller, true),
        success: { 200: answer('A page of rows.', model.listEnvelope()) },
      };
    case 'POST ':
      return {
        id: `${id}.create`,
        summary: `Create a record of ${name}`,
        parameters: [sessionKeyHeader(false, 'The form session whose deferred relation changes and uploads the save applies.')],
        body: jsonBody(model.body('create'), false),
        success: { 201: answer('The created record.', model.recordEnvelope(), ETAG) },
        errors: [403],
      };
    case 'GET /:id':
      return {
        id: `${id}.show`,
        summary: `Show a record of ${name}`,
        parameters: [idParam()],
        success: { 200: answer('The record.', model.recordEnvelope(), ETAG) },
        errors: [404],
      };
    case 'PUT /:id':
      return {
        id: `${id}.update`,
        summary: `Update a record of ${name}`,
        parameters: [
          idParam(),
          headerParam('If-Match', '`*` or entity tags: a stale version is 412 and nothing is written.'),
          sessionKeyHeader(false, 'The form session whose deferred relation changes and uploads the save applies.'),
        ],
        body: jsonBody(model.body('update'), false),
        success: { 200: answer('The saved record.', model.recordEnvelope(), ETAG) },
        errors: [403, 404],
        errorResponses: {
          412: answer('The record changed since the `If-Match` version: the current record beside the error.', model.staleEnvelope(), ETAG),
        },
      };
    case 'DELETE /:id':
      return {
        id: `${id}.delete`,
        summary: `Delete a record of ${name}`,
        parameters: [idParam()],
        success: ok('`{deleted: 1}`.', ref('BulkResult')),
        errors: [403, 404],
      };
    case 'POST /bulk-delete':
      return {
        id: `${id}.bulkDelete`,
        summary: `Delete records of ${name}`,
        body: jsonBody(ref('AdminIDsRequest')),
        success: ok('How many were deleted (0 when none is in scope).', ref('BulkResult')),
        errors: [403, 409],
      };
    case 'GET /schema/form':
      return { id: `${id}.formSchema`, summary: `The form of ${name}`, success: ok('The FormView.', ref('FormView')) };
    case 'GET /schema/list':
      return { id: `${id}.listSchema`, summary: `The list of ${name}`, success: ok('The ListSchema.', ref('ListSchema')) };
    case 'GET /fields/:field/options': {
      const fields = [...controller.fields.values()]
        .filter((field) => field.type.name === 'relation' && !field.config.readOnly && field.relation)
        .map((field) => field.name);
      return {
        id: `${id}.fieldOptions`,
        summary: `Options of a relation field of ${name}`,
        parameters: [
          namedParam('field', 'A writable relation field.', fields),
          queryParam('search', 'Matched case-insensitively in the label.', string({ maxLength: 200 })),
          ...pageParams(undefined, 100),
        ],
        success: { 200: answer('A page of options.', exact({ data: arrayOf(ref('RelationOption')), meta: ref('ListMeta') })) },
        errors: [404],
      };
    }
    case 'GET /filters/:scope/options': {
      const scopes = Object.entries(controller.list.filters ?? {})
        .filter(([, filter]) => filter.type === 'scope')
        .map(([filter]) => filter);
      return {
        id: `${id}.filterOptions`,
        summary: `Options of a scope filter of ${name}`,
        parameters: [namedParam('scope', 'A scope filter of the list.', scopes)],
        success: ok('The filter\u2019s options.', arrayOf(ref('FilterOption'))),
        errors: [404],
      };
    }
    case 'GET /singleton':
      return {
        id: `${id}.singleton`,
        summary: `The single record of ${name}`,
        description: 'The first record in the form scope, created from the defaults when the table is empty.',
        success: { 200: answer('The record.', model.recordEnvelope(), ETAG) },
        errors: [404],
      };
    case 'POST /:id/actions/:action':
      return {
        id: `${id}.recordAction`,
        summary: `Run a record action of ${name}`,
        parameters: [idParam(), namedParam('action', 'A record action.', actionNames(controller, 'record'))],
        success: ok('The action\u2019s answer; `fill` is empty.', ref('AdminActionResult')),
        errors: [403, 404, 409],
      };
    case 'POST /bulk/:action':
      return {
        id: `${id}.bulkAction`,
        summary: `Run a bulk action of ${name}`,
        parameters: [namedParam('action', 'A bulk action of the list.', actionNames(controller, 'bulk'))],
        body: jsonBody(ref('AdminIDsRequest')),
        success: ok('How many records the action changed.', ref('BulkActionResult')),
        errors: [403, 404, 409],
      };
    case 'POST /toolbar/:action':
      return {
        id: `${id}.toolbarAction`,
        summary: `Run a toolbar action of ${name}`,
        parameters: [namedParam('action', 'A toolbar action of the list.', actionNames(controller, 'toolbar')), XHR],
        body: jsonBody(object({}, [], { description: 'Exactly `{}`.' })),
        success: ok('The action\u2019s answer; `fill` is empty.', ref('AdminActionResult')),
        errors: [403, 404, 409],
      };
    case 'POST /widgets/:field': {
      const widgets = [...controller.fields.values()].filter((field) => field.type.name === 'widget').map((field) => field.name);
      return {
        id: `${id}.widgetAction`,
        summary: `Run the action of a widget field of ${name}`,
        parameters: [namedParam('field', 'A widget field of the form.', widgets), XHR],
        body: jsonBody(ref('AdminActionRequest'), false),
        success: ok('The action\u2019s answer.', ref('AdminActionResult')),
        errors: [403, 404, 409],
      };
    }
    case 'GET /partials/:name': {
      const partials = Object.entries(controller.config.partials ?? {});
      const form = partials.some(([, partial]) => partial.form === true);
      return {
        id: `${id}.partial`,
        summary: `Render a partial of ${name}`,
        parameters: [
          namedParam(
            'name',
            'A partial of the controller.',
            partials.map(([partial]) => partial),
          ),
          ...(form ? [queryParam('id', 'A record id (form partials only).', string({ pattern: '^[1-9]\\d{0,9}$' }))] : []),
        ],
        success: ok('The rendered node tree.', ref('PartialView')),
        errors: [404],
      };
    }
    case 'POST /:id/fields/<field>/upload':
      return pluginUpload(route, controller, id);
    case 'GET /reorder':
      return {
        id: `${id}.reorder`,
        summary: `The order of ${name}`,
        success: ok('The scoped set in display order.', arrayOf(ref('ReorderNode')), ref('ReorderMeta')),
      };
    case 'POST /reorder':
      return {
        id: `${id}.saveOrder`,
        summary: `Save the order of ${name}`,
        body: jsonBody(ref('ReorderRequest')),
        success: ok('The new order.', arrayOf(ref('ReorderNode')), ref('ReorderMeta')),
        errors: [409],
      };
  }
  if (rest.startsWith('/:id/relations/:name') || rest === '/schema/relation/:name')
    return describeRelationRoute(route, rest, controller, registry, id);
  if (rest.startsWith('/:id/files/:field')) return describeFileRoute(route, rest, controller, id);
  return undefined;
}

/** `POST /{ctl}/{id}/fields/{field}/upload`: the plugin field type's upload handler answers any JSON value. */
function pluginUpload(route: RouteDefinition, controller: ResolvedController, id: string): Draft {
  const fieldName = /\/([^/]+)\/upload$/.exec(route.path)![1]!;
  const field = controller.fields.get(fieldName);
  const type = pluginFieldTypeOf(field?.type);
  const accept = type?.upload?.accept ? ` Extensions: ${type.upload.accept.join(', ')}.` : '';
  return {
    id: `${id}.upload.${fieldName}`,
    summary: `Upload a file to the ${fieldName} field of ${controller.address}`,
    parameters: [idParam()],
    body: multipartBody(PLUGIN_UPLOAD_FIELD, route.upload?.maxBytes ?? 0, `One file under \`${PLUGIN_UPLOAD_FIELD}\`.${accept}`),
    success: ok('What the field type\u2019s upload handler answered.', anyValue('Any JSON value.')),
    // A handler that runs its image work through `imageWork` answers 429 when the queue is full (docs/files.md, "Image work").
    errors: [404, 429],
  };
}

/** The relation routes (docs/relations.md, "Routes"): schemas of the relation the path names. */
function describeRelationRoute(
  route: RouteDefinition,
  rest: string,
  controller: ResolvedController,
  registry: SchemaRegistry,
  id: string,
): Draft | undefined {
  const relations = [...controller.relations.values()];
  const names = relations.map((relation) => relation.name);
  const nameParam = namedParam('name', 'A relation managed on the form.', names);
  const view = (relation: ResolvedRelation) => new ControllerModel(relation.view, registry);
  const manage = (relation: ResolvedRelation) => new ControllerModel(relation.manage, registry);
  const shownForm = (relation: ResolvedRelation) =>
    relation.config.manageForm ? view(relation) : relation.viewForm ? new ControllerModel(relation.viewForm, registry) : undefined;
  const withManageForm = relations.filter((relation) => relation.config.manageForm !== undefined);
  const withPivot = relations.filter((relation) => (relation.pivot?.fields.size ?? 0) > 0);
  const parent = [parentParam(), nameParam, sessionKeyHeader()];
  const childSession = headerParam(
    'X-Child-Session-Key',
    'The child form\u2019s own session: its uploads are committed by the child\u2019s save.',
    SESSION_KEY,
  );
  const pivotValues = anyOf(
    withPivot.map((relation) =>
      exact(
        Object.fromEntries(
          [...relation.pivot!.fields.values()].map((field) => [field.name, pivotValue(relation, field.name, registry.locales)]),
        ),
      ),
    ),
  );
  const label = `a relation of ${controller.address}`;
  switch (`${route.method} ${rest}`) {
    case 'GET /schema/relation/:name':
      return {
        id: `${id}.relationSchema`,
        summary: `The schema of ${label}`,
        parameters: [nameParam],
        success: ok('The RelationSchema.', ref('RelationSchema')),
        errors: [404],
      };
    case 'GET /:id/relations/:name':
      return {
        id: `${id}.relationList`,
        summary: `Linked rows of ${label}`,
        parameters: [...parent, ...relationListParams(relations.map((relation) => relation.view))],
        success: {
          200: answer('A page of linked rows (the view list\u2019s columns).', anyOf(relations.map((r) => view(r).listEnvelope()))),
        },
        errors: [404],
      };
    case 'GET /:id/relations/:name/candidates':
      return {
        id: `${id}.relationCandidates`,
        summary: `Rows that may be linked to ${label}`,
        parameters: [...parent, ...relationListParams(relations.map((relation) => relation.manage))],
        success: {
          200: answer('A page of candidates (the manage list\u2019s columns).', anyOf(relations.map((r) => manage(r).listEnvelope()))),
        },
        errors: [404],
      };
    case 'POST /:id/relations/:name/link':
      return {
        id: `${id}.relationLink`,
        summary: `Link rows to ${label}`,
        parameters: parent,
        body: jsonBody(ref('AdminRelationLinkRequest')),
        success: ok('How many rows were linked.', ref('RelationLinkResult')),
        errors: [404],
      };
    case 'POST /:id/relations/:name/unlink':
      return {
        id: `${id}.relationUnlink`,
        summary: `Unlink rows from ${label}`,
        parameters: parent,
        body: jsonBody(ref('AdminRelationIdsRequest')),
        success: ok('How many rows were unlinked.', ref('RelationRemoveResult')),
        errors: [404],
      };
    case 'POST /:id/relations/:name/delete':
      return {
        id: `${id}.relationDelete`,
        summary: `Delete children of ${label}`,
        parameters: parent,
        body: jsonBody(ref('AdminRelationIdsRequest')),
        success: ok('How many children were deleted (all or nothing).', ref('RelationRemoveResult')),
        errors: [404],
      };
    case 'POST /:id/relations/:name/records':
      return {
        id: `${id}.relationCreate`,
        summary: `Create a child of ${label}`,
        parameters: [...parent, childSession],
        body: jsonBody(anyOf(withManageForm.map((relation) => view(relation).body('create'))), false),
        success: { 201: answer('The created child.', anyOf(withManageForm.map((relation) => view(relation).recordEnvelope()))) },
        errors: [403, 404],
      };
    case 'GET /:id/relations/:name/records/:child': {
      const forms = relations.flatMap((relation) => shownForm(relation) ?? []);
      return {
        id: `${id}.relationShow`,
        summary: `Show a child of ${label}`,
        parameters: [...parent, idParam('child', 'A child (a member of the relation).')],
        success: { 200: answer('The child.', anyOf(forms.map((form) => form.recordEnvelope()))) },
        errors: [404],
      };
    }
    case 'PUT /:id/relations/:name/records/:child':
      return {
        id: `${id}.relationUpdate`,
        summary: `Update a child of ${label}`,
        parameters: [...parent, idParam('child', 'A child (a member of the relation).'), childSession],
        body: jsonBody(anyOf(withManageForm.map((relation) => view(relation).body('update'))), false),
        success: { 200: answer('The saved child.', anyOf(withManageForm.map((relation) => view(relation).recordEnvelope()))) },
        errors: [403, 404],
      };
    case 'GET /:id/relations/:name/pivot/:child':
      return {
        id: `${id}.relationPivot`,
        summary: `Pivot values of a linked row of ${label}`,
        parameters: [...parent, idParam('child', 'A linked row.')],
        success: ok('The pivot values (`pivot.form` fields).', pivotValues),
        errors: [404],
      };
    case 'PUT /:id/relations/:name/pivot/:child':
      return {
        id: `${id}.relationSavePivot`,
        summary: `Edit pivot values of a linked row of ${label}`,
        parameters: [...parent, idParam('child', 'A linked row.')],
        body: jsonBody(mapOf(anyValue(), { description: 'Pivot values: `pivot.form` fields only.' })),
        success: ok('The pivot values.', pivotValues),
        errors: [404],
      };
    case 'POST /:id/relations/:name/records/:child/files/:field': {
      const fields = [...new Set(relations.flatMap((relation) => fileFields(relation.view).map((field) => field.name)))];
      return {
        id: `${id}.relationUpload`,
        summary: `Upload a file into a child\u2019s form of ${label}`,
        parameters: [
          parentParam(),
          nameParam,
          pathParam('child', 'The child, or 0 for one not created yet.', integer({ minimum: 0, maximum: 2_147_483_647 })),
          namedParam('field', 'A fileupload field of the child\u2019s form.', fields),
          sessionKeyHeader(),
          headerParam('X-Child-Session-Key', 'The child form\u2019s session (required).', SESSION_KEY, true),
          headerParam('X-Upload-Id', 'Makes a retry answer the first upload.', SESSION_KEY),
        ],
        body: multipartBody(FILE_UPLOAD_FIELD, route.upload?.maxBytes ?? 0, `One file under \`${FILE_UPLOAD_FIELD}\`.`),
        success: { 201: answer('The stored file, pending until the child is saved.', envelope(ref('FileItem'))) },
        // An image's work waits in the image queue, which answers 429 when full (docs/files.md, "Image work").
        errors: [404, 429],
      };
    }
  }
  return undefined;
}

/** The list query of a relation's linked rows or candidates: columns of every relation the path may name. */
function relationListParams(lists: readonly ResolvedController[]): Parameter[] {
  const searchable = lists.some((list) => Object.values(list.list.columns).some((column) => column.searchable));
  const sortable = [
    ...new Set(
      lists.flatMap((list) =>
        Object.entries(list.list.columns)
          .filter(([, c]) => c.sortable)
          .map(([key]) => key),
      ),
    ),
  ];
  const perPage = [...new Set(lists.flatMap((list) => list.list.perPageOptions))].sort((a, b) => a - b);
  return [
    ...(searchable ? [queryParam('search', 'Matched case-insensitively in every searchable column.', string({ maxLength: 200 }))] : []),
    ...(sortable.length ? [queryParam('sort', 'A sortable column.', string({ enum: sortable }))] : []),
    queryParam('dir', 'The sort direction.', string({ enum: ['asc', 'desc'] })),
    ...pageParams(perPage),
  ];
}

/** A pivot field's value as the pivot routes serve it: encoded by its type, null when the row holds none. */
function pivotValue(relation: ResolvedRelation, name: string, locales: readonly string[]): Schema {
  const field = relation.pivot!.fields.get(name)!;
  return nullable(recordValue(field, locales) ?? anyValue());
}

/** The file routes (docs/files.md, "Routes"). */
function describeFileRoute(route: RouteDefinition, rest: string, controller: ResolvedController, id: string): Draft | undefined {
  const fields = fileFields(controller).map((field) => field.name);
  const base = [parentParam(), namedParam('field', 'A fileupload field of the form.', fields)];
  const fileId = idParam('fileId', 'A file of the field.');
  const label = `a file field of ${controller.address}`;
  switch (`${route.method} ${rest}`) {
    case 'GET /:id/files/:field':
      return {
        id: `${id}.files`,
        summary: `Files of ${label}`,
        parameters: [...base, sessionKeyHeader(false, 'Includes the pending uploads of this form session.')],
        success: ok('The files in `sort_order`, pending uploads included.', arrayOf(ref('FileItem'))),
        errors: [404],
      };
    case 'POST /:id/files/:field':
      return {
        id: `${id}.upload`,
        summary: `Upload a file into ${label}`,
        parameters: [
          ...base,
          sessionKeyHeader(false, 'Holds the upload (pending) until the form is saved with this key.'),
          headerParam('X-Upload-Id', 'Makes a retry answer the first upload and store nothing new.', SESSION_KEY),
        ],
        body: multipartBody(FILE_UPLOAD_FIELD, route.upload?.maxBytes ?? 0, `One file under \`${FILE_UPLOAD_FIELD}\`.`),
        success: {
          201: answer('The stored file: as uploaded, an image without its metadata unless the field keeps it.', envelope(ref('FileItem'))),
        },
        errors: [404, 429],
      };
    case 'POST /:id/files/:field/reorder':
      return {
        id: `${id}.reorderFiles`,
        summary: `Reorder ${label}`,
        parameters: [...base, sessionKeyHeader()],
        body: jsonBody(ref('AdminFileReorderRequest')),
        success: ok('The files in the new order.', arrayOf(ref('FileItem'))),
        errors: [404],
      };
    case 'PUT /:id/files/:field/:fileId':
      return {
        id: `${id}.captionFile`,
        summary: `Caption a file of ${label}`,
        parameters: [...base, fileId, sessionKeyHeader()],
        body: jsonBody(ref('AdminFileCaptionRequest')),
        success: ok('The file.', ref('FileItem')),
        errors: [404],
      };
    case 'DELETE /:id/files/:field/:fileId':
      return {
        id: `${id}.removeFile`,
        summary: `Remove a file of ${label}`,
        parameters: [...base, fileId, sessionKeyHeader(false, 'Defers the removal to the form\u2019s save.')],
        success: ok('`{removed: 1}`.', ref('FileMutationResult')),
        errors: [404],
      };
    case 'GET /:id/files/:field/:fileId/download':
      return {
        id: `${id}.downloadFile`,
        summary: `Download a protected file of ${label}`,
        parameters: [...base, fileId, sessionKeyHeader()],
        success: { 200: binary('The file\u2019s bytes (a public file is served by its `url` instead: 404 here).', '*/*') },
        errors: [404],
      };
    case 'GET /:id/files/:field/:fileId/thumb':
      return {
        id: `${id}.thumbFile`,
        summary: `A thumbnail of a protected image of ${label}`,
        parameters: [
          ...base,
          fileId,
          sessionKeyHeader(),
          queryParam(
            'width',
            'Pixels. Only these sizes (width × height): the field\u2019s `imageWidth` × `imageHeight` (the default), its double, 100 × 100 and 200 × 200; any other is a 422 on `width`/`height`.',
            string({ pattern: '^[1-9]\\d{0,3}$' }),
          ),
          queryParam('height', 'Pixels; see `width` for the sizes made.', string({ pattern: '^[1-9]\\d{0,3}$' })),
          queryParam('mode', 'How the image is fitted.', string({ enum: ['crop', 'fit'] })),
        ],
        success: { 200: binary('A WebP thumbnail of the first frame, without metadata.', 'image/webp') },
        errors: [404, 429],
      };
  }
  return undefined;
}
