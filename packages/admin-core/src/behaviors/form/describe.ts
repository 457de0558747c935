import type { ResolvedController } from '../../controllers/resolve.ts';
import { ControllerModel } from '../../openapi/models.ts';
import {
  answer,
  headerParam,
  idParam,
  jsonBody,
  ok,
  sessionKeyHeader,
  type RouteSchema,
  type SchemaComponents,
} from '../../schema/route.ts';
import { ref } from '../../schema/types.ts';

/*
 * The descriptions of the record routes (docs/controllers.md, "The routes"; docs/openapi.md,
 * "Operations"): the concrete schemas of the controller, registered once in `components.schemas`.
 * Record bodies are decoded by their field types (`handlerDecodesBody`): the pipeline checks only
 * that the body is an object.
 */

const ETAG = { ETag: { $ref: '#/components/headers/ETag' } };
const SAVE_SESSION = 'The form session whose deferred relation changes and uploads the save applies.';
/** A malformed `X-Session-Key` says what it said before the description checked it (docs/relations.md, "Deferred bindings"). */
const SESSION_MESSAGE = { 'X-Session-Key': 'backend::relation.session_key' };

const operationId = (controller: ResolvedController, name: string) => `${controller.address.replace(/\//g, '.')}.${name}`;

export const describeSingleton = (controller: ResolvedController, components: SchemaComponents): RouteSchema => ({
  id: operationId(controller, 'singleton'),
  summary: `The single record of ${controller.address}`,
  description: 'The first record in the form scope, created from the defaults when the table is empty.',
  success: { 200: answer('The record.', new ControllerModel(controller, components).recordEnvelope(), ETAG) },
  errors: [404],
});

export function describeCreate(controller: ResolvedController, components: SchemaComponents): RouteSchema {
  const model = new ControllerModel(controller, components);
  return {
    id: operationId(controller, 'create'),
    summary: `Create a record of ${controller.address}`,
    parameters: [sessionKeyHeader(false, SAVE_SESSION)],
    body: jsonBody(model.body('create'), false),
    handlerDecodesBody: true,
    messages: SESSION_MESSAGE,
    success: { 201: answer('The created record.', model.recordEnvelope(), ETAG) },
    errors: [403],
  };
}

export const describeBulkDelete = (controller: ResolvedController): RouteSchema => ({
  id: operationId(controller, 'bulkDelete'),
  summary: `Delete records of ${controller.address}`,
  body: jsonBody(ref('AdminIDsRequest')),
  success: ok('How many were deleted (0 when none is in scope).', ref('BulkResult')),
  errors: [403, 409],
});

export const describeDelete = (controller: ResolvedController): RouteSchema => ({
  id: operationId(controller, 'delete'),
  summary: `Delete a record of ${controller.address}`,
  parameters: [idParam()],
  success: ok('`{deleted: 1}`.', ref('BulkResult')),
  errors: [403, 404],
});

export const describeShow = (controller: ResolvedController, components: SchemaComponents): RouteSchema => ({
  id: operationId(controller, 'show'),
  summary: `Show a record of ${controller.address}`,
  parameters: [idParam()],
  success: { 200: answer('The record.', new ControllerModel(controller, components).recordEnvelope(), ETAG) },
  errors: [404],
});

export function describeUpdate(controller: ResolvedController, components: SchemaComponents): RouteSchema {
  const model = new ControllerModel(controller, components);
  return {
    id: operationId(controller, 'update'),
    summary: `Update a record of ${controller.address}`,
    parameters: [
      idParam(),
      headerParam('If-Match', '`*` or entity tags: a stale version is 412 and nothing is written.'),
      sessionKeyHeader(false, SAVE_SESSION),
    ],
    body: jsonBody(model.body('update'), false),
    handlerDecodesBody: true,
    messages: SESSION_MESSAGE,
    success: { 200: answer('The saved record.', model.recordEnvelope(), ETAG) },
    errors: [403, 404],
    errorResponses: {
      412: answer('The record changed since the `If-Match` version: the current record beside the error.', model.staleEnvelope(), ETAG),
    },
  };
}
