import type { ResolvedController, ResolvedRelation } from '../../controllers/resolve.ts';
import { anyValue, exact, integer, mapOf, nullable, string } from '../../schema/json.ts';
import {
  answer,
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
  type RouteSchema,
  type SchemaComponents,
} from '../../schema/route.ts';
import { ref, type Parameter, type Schema } from '../../schema/types.ts';
import { recordValue } from '../../openapi/fields.ts';
import { anyOf, ControllerModel } from '../../openapi/models.ts';
import { fileFields } from '../files/field.ts';
import { FILE_UPLOAD_FIELD } from '../files/prepare.ts';

/*
 * The descriptions of the relation routes (docs/relations.md, "Routes"; docs/openapi.md,
 * "Operations"), with the concrete schemas of the relations the path may name. The pipeline
 * validates the path, the query and the headers from them; the bodies are checked by the
 * routes' own parsers (`http.ts`, `handlerDecodesBody`), whose details name `ids` and `pivot.<key>`
 * as they always did.
 */

/** A malformed key says what it said before the description checked it (docs/relations.md, "The session key"). */
const KEY_MESSAGES = {
  'X-Session-Key': 'backend::relation.session_key',
  'X-Child-Session-Key': 'backend::relation.session_key',
  'X-Upload-Id': 'backend::relation.session_key',
};

/** What every relation route's description is made from: the controller's relations and their models. */
class RelationModels {
  readonly relations: ResolvedRelation[];
  readonly nameParam: Parameter;
  readonly parent: Parameter[];
  readonly id: string;
  readonly label: string;
  readonly controller: ResolvedController;
  readonly components: SchemaComponents;

  constructor(controller: ResolvedController, components: SchemaComponents) {
    this.controller = controller;
    this.components = components;
    this.relations = [...controller.relations.values()];
    this.nameParam = namedParam(
      'name',
      'A relation managed on the form.',
      this.relations.map((relation) => relation.name),
    );
    this.parent = [parentParam(), this.nameParam, sessionKeyHeader()];
    this.id = controller.address.replace(/\//g, '.');
    this.label = `a relation of ${controller.address}`;
  }

  view = (relation: ResolvedRelation) => new ControllerModel(relation.view, this.components);
  manage = (relation: ResolvedRelation) => new ControllerModel(relation.manage, this.components);
  shownForm = (relation: ResolvedRelation) =>
    relation.config.manageForm
      ? this.view(relation)
      : relation.viewForm
        ? new ControllerModel(relation.viewForm, this.components)
        : undefined;
  withManageForm = () => this.relations.filter((relation) => relation.config.manageForm !== undefined);

  childSession = () =>
    headerParam(
      'X-Child-Session-Key',
      'The child form\u2019s own session: its uploads are committed by the child\u2019s save.',
      SESSION_KEY,
    );

  pivotValues = (): Schema =>
    anyOf(
      this.relations
        .filter((relation) => (relation.pivot?.fields.size ?? 0) > 0)
        .map((relation) =>
          exact(
            Object.fromEntries(
              [...relation.pivot!.fields.values()].map((field) => [field.name, pivotValue(relation, field.name, this.components.locales)]),
            ),
          ),
        ),
    );
}

const models = (controller: ResolvedController, components: SchemaComponents) => new RelationModels(controller, components);

export function describeRelationSchema(controller: ResolvedController, components: SchemaComponents): RouteSchema {
  const m = models(controller, components);
  return {
    id: `${m.id}.relationSchema`,
    summary: `The schema of ${m.label}`,
    parameters: [m.nameParam],
    success: ok('The RelationSchema.', ref('RelationSchema')),
    errors: [404],
  };
}

export function describeRelationList(controller: ResolvedController, components: SchemaComponents): RouteSchema {
  const m = models(controller, components);
  return {
    id: `${m.id}.relationList`,
    summary: `Linked rows of ${m.label}`,
    parameters: [...m.parent, ...relationListParams(m.relations.map((relation) => relation.view))],
    messages: LIST_MESSAGES,
    success: {
      200: answer('A page of linked rows (the view list\u2019s columns).', anyOf(m.relations.map((r) => m.view(r).listEnvelope()))),
    },
    errors: [404],
  };
}

export function describeRelationCandidates(controller: ResolvedController, components: SchemaComponents): RouteSchema {
  const m = models(controller, components);
  return {
    id: `${m.id}.relationCandidates`,
    summary: `Rows that may be linked to ${m.label}`,
    parameters: [...m.parent, ...relationListParams(m.relations.map((relation) => relation.manage))],
    messages: LIST_MESSAGES,
    success: {
      200: answer('A page of candidates (the manage list\u2019s columns).', anyOf(m.relations.map((r) => m.manage(r).listEnvelope()))),
    },
    errors: [404],
  };
}

export function describeRelationLink(controller: ResolvedController, components: SchemaComponents): RouteSchema {
  const m = models(controller, components);
  return {
    id: `${m.id}.relationLink`,
    summary: `Link rows to ${m.label}`,
    parameters: m.parent,
    body: jsonBody(ref('AdminRelationLinkRequest')),
    handlerDecodesBody: true,
    messages: KEY_MESSAGES,
    success: ok('How many rows were linked.', ref('RelationLinkResult')),
    errors: [404],
  };
}

export function describeRelationUnlink(controller: ResolvedController, components: SchemaComponents): RouteSchema {
  const m = models(controller, components);
  return {
    id: `${m.id}.relationUnlink`,
    summary: `Unlink rows from ${m.label}`,
    parameters: m.parent,
    body: jsonBody(ref('AdminRelationIdsRequest')),
    handlerDecodesBody: true,
    messages: KEY_MESSAGES,
    success: ok('How many rows were unlinked.', ref('RelationRemoveResult')),
    errors: [404],
  };
}

export function describeRelationDelete(controller: ResolvedController, components: SchemaComponents): RouteSchema {
  const m = models(controller, components);
  return {
    id: `${m.id}.relationDelete`,
    summary: `Delete children of ${m.label}`,
    parameters: m.parent,
    body: jsonBody(ref('AdminRelationIdsRequest')),
    handlerDecodesBody: true,
    messages: KEY_MESSAGES,
    success: ok('How many children were deleted (all or nothing).', ref('RelationRemoveResult')),
    errors: [404],
  };
}

export function describeChildCreate(controller: ResolvedController, components: SchemaComponents): RouteSchema {
  const m = models(controller, components);
  const forms = m.withManageForm();
  return {
    id: `${m.id}.relationCreate`,
    summary: `Create a child of ${m.label}`,
    parameters: [...m.parent, m.childSession()],
    body: jsonBody(anyOf(forms.map((relation) => m.view(relation).body('create'))), false),
    handlerDecodesBody: true,
    messages: KEY_MESSAGES,
    success: { 201: answer('The created child.', anyOf(forms.map((relation) => m.view(relation).recordEnvelope()))) },
    errors: [403, 404],
  };
}

export function describeChildShow(controller: ResolvedController, components: SchemaComponents): RouteSchema {
  const m = models(controller, components);
  const forms = m.relations.flatMap((relation) => m.shownForm(relation) ?? []);
  return {
    id: `${m.id}.relationShow`,
    summary: `Show a child of ${m.label}`,
    parameters: [...m.parent, idParam('child', 'A child (a member of the relation).')],
    messages: KEY_MESSAGES,
    success: { 200: answer('The child.', anyOf(forms.map((form) => form.recordEnvelope()))) },
    errors: [404],
  };
}

export function describeChildUpdate(controller: ResolvedController, components: SchemaComponents): RouteSchema {
  const m = models(controller, components);
  const forms = m.withManageForm();
  return {
    id: `${m.id}.relationUpdate`,
    summary: `Update a child of ${m.label}`,
    parameters: [...m.parent, idParam('child', 'A child (a member of the relation).'), m.childSession()],
    body: jsonBody(anyOf(forms.map((relation) => m.view(relation).body('update'))), false),
    handlerDecodesBody: true,
    messages: KEY_MESSAGES,
    success: { 200: answer('The saved child.', anyOf(forms.map((relation) => m.view(relation).recordEnvelope()))) },
    errors: [403, 404],
  };
}

export function describePivotShow(controller: ResolvedController, components: SchemaComponents): RouteSchema {
  const m = models(controller, components);
  return {
    id: `${m.id}.relationPivot`,
    summary: `Pivot values of a linked row of ${m.label}`,
    parameters: [...m.parent, idParam('child', 'A linked row.')],
    messages: KEY_MESSAGES,
    success: ok('The pivot values (`pivot.form` fields).', m.pivotValues()),
    errors: [404],
  };
}

export function describePivotUpdate(controller: ResolvedController, components: SchemaComponents): RouteSchema {
  const m = models(controller, components);
  return {
    id: `${m.id}.relationSavePivot`,
    summary: `Edit pivot values of a linked row of ${m.label}`,
    parameters: [...m.parent, idParam('child', 'A linked row.')],
    body: jsonBody(mapOf(anyValue(), { description: 'Pivot values: `pivot.form` fields only.' })),
    handlerDecodesBody: true,
    messages: KEY_MESSAGES,
    success: ok('The pivot values.', m.pivotValues()),
    errors: [404],
  };
}

export function describeChildUpload(controller: ResolvedController, components: SchemaComponents, maxBytes: number): RouteSchema {
  const m = models(controller, components);
  const fields = [...new Set(m.relations.flatMap((relation) => fileFields(relation.view).map((field) => field.name)))];
  return {
    id: `${m.id}.relationUpload`,
    summary: `Upload a file into a child\u2019s form of ${m.label}`,
    parameters: [
      parentParam(),
      m.nameParam,
      pathParam('child', 'The child, or 0 for one not created yet.', integer({ minimum: 0, maximum: 2_147_483_647 })),
      namedParam('field', 'A fileupload field of the child\u2019s form.', fields),
      sessionKeyHeader(),
      headerParam('X-Child-Session-Key', 'The child form\u2019s session (required).', SESSION_KEY, true),
      headerParam('X-Upload-Id', 'Makes a retry answer the first upload.', SESSION_KEY),
    ],
    body: multipartBody(FILE_UPLOAD_FIELD, maxBytes, `One file under \`${FILE_UPLOAD_FIELD}\`.`),
    messages: KEY_MESSAGES,
    success: { 201: answer('The stored file, pending until the child is saved.', envelope(ref('FileItem'))) },
    // An image's work waits in the image queue, which answers 429 when full (docs/files.md, "Image work").
    errors: [404, 429],
  };
}

/** Today's words for the list query, as the controller list says them (docs/controllers.md, "The list route"). */
const LIST_MESSAGES = { ...KEY_MESSAGES, page: 'backend::validation.integer' };

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
