import type { ResolvedController } from '../../controllers/resolve.ts';
import { object, string } from '../../schema/json.ts';
import { headerParam, idParam, jsonBody, namedParam, ok, type RouteSchema } from '../../schema/route.ts';
import { ref } from '../../schema/types.ts';
import { offeredBulkActions } from '../../controllers/action-bulk.ts';
import { recordActionEntries } from '../../controllers/duplicate-config.ts';

/*
 * The descriptions of the action routes (docs/actions.md; docs/openapi.md, "Operations"). An
 * action the path does not name among these is a 404 before the body is looked at.
 */

const XHR = headerParam('X-Requested-With', 'Required on every transport (for example `XMLHttpRequest`).', string({ minLength: 1 }), true);

const operationId = (controller: ResolvedController, name: string) => `${controller.address.replace(/\//g, '.')}.${name}`;

export const describeRecordAction = (controller: ResolvedController): RouteSchema => ({
  id: operationId(controller, 'recordAction'),
  summary: `Run a record action of ${controller.address}`,
  parameters: [
    idParam(),
    namedParam(
      'action',
      'A record action.',
      recordActionEntries(controller.config).map(([name]) => name),
    ),
  ],
  success: ok('The action\u2019s answer; `fill` is empty.', ref('AdminActionResult')),
  errors: [403, 404, 409],
});

export const describeBulkAction = (controller: ResolvedController): RouteSchema => ({
  id: operationId(controller, 'bulkAction'),
  summary: `Run a bulk action of ${controller.address}`,
  parameters: [
    namedParam(
      'action',
      'A bulk action of the list.',
      offeredBulkActions(controller.config).map((action) => action.name),
    ),
  ],
  body: jsonBody(ref('AdminIDsRequest')),
  success: ok('How many records the action changed.', ref('BulkActionResult')),
  errors: [403, 404, 409],
});

export function describeToolbarAction(controller: ResolvedController): RouteSchema {
  const registered = Object.keys(controller.config.actions?.toolbar ?? {});
  const listed = (controller.list.toolbar?.buttons ?? []).filter((name) => registered.includes(name));
  return {
    id: operationId(controller, 'toolbarAction'),
    summary: `Run a toolbar action of ${controller.address}`,
    parameters: [namedParam('action', 'A toolbar action of the list.', listed), XHR],
    body: jsonBody(object({}, [], { description: 'Exactly `{}`.' })),
    success: ok('The action\u2019s answer; `fill` is empty.', ref('AdminActionResult')),
    errors: [403, 404, 409],
  };
}

export function describeWidgetAction(controller: ResolvedController): RouteSchema {
  const widgets = [...controller.fields.values()].filter((field) => field.type.name === 'widget').map((field) => field.name);
  return {
    id: operationId(controller, 'widgetAction'),
    summary: `Run the action of a widget field of ${controller.address}`,
    parameters: [namedParam('field', 'A widget field of the form.', widgets), XHR],
    body: jsonBody(ref('AdminActionRequest'), false),
    success: ok('The action\u2019s answer.', ref('AdminActionResult')),
    errors: [403, 404, 409],
  };
}
