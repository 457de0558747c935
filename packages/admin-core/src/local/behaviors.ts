import type { LocalOptions } from '../context/local.ts';
import { runBulkAction, runRecordAction, runToolbarAction, runWidgetAction, type WidgetRequest } from '../behaviors/actions/run.ts';
import { readOrder, saveOrder } from '../behaviors/reorder/operations.ts';
import { onController, type LocalRunner } from './runner.ts';

/** One node of a reorder: the record and its parent in a tree (`null` at the root, or in a flat list). */
export interface LocalReorderNode {
  id: number;
  parent_id: number | null;
}

/** Actions and reorder (docs/local-api.md, "Actions and reorder"). Each action checks its own permissions too. */
export function behaviorMethods(runner: LocalRunner) {
  return {
    actions: {
      /** `POST /{ctl}/{id}/actions/{name}`: the record locked through the form scope. */
      async record(address: string, id: number, name: string, options: LocalOptions) {
        const { controller, ctx } = await onController(runner, address, 'actions', options);
        return runRecordAction(controller, { id, action: name }, ctx);
      },
      /** `POST /{ctl}/bulk/{name}`: the selection locked through the list scope. */
      async bulk(address: string, ids: number[], name: string, options: LocalOptions) {
        const { controller, ctx } = await onController(runner, address, 'actions', options);
        return runBulkAction(controller, { ids, action: name }, ctx);
      },
      /** `POST /{ctl}/toolbar/{name}`. */
      async toolbar(address: string, name: string, options: LocalOptions) {
        const { controller, ctx } = await onController(runner, address, 'actions', options);
        return runToolbarAction(controller, { action: name }, ctx);
      },
      /** `POST /{ctl}/widgets/{field}`: `record_id`, `values` and `payload` as the route's body. */
      async widget(address: string, field: string, request: WidgetRequest, options: LocalOptions) {
        const { controller, ctx } = await onController(runner, address, 'actions', options);
        return runWidgetAction(controller, { field, body: request }, ctx);
      },
    },
    reorder: {
      /** `GET /{ctl}/reorder`: the scoped set in display order. */
      async read(address: string, options: LocalOptions) {
        const { controller, ctx } = await onController(runner, address, 'reorder', options);
        return readOrder(controller, ctx);
      },
      /** `POST /{ctl}/reorder`: the whole scoped set in its new order. */
      async save(address: string, nodes: readonly LocalReorderNode[], options: LocalOptions) {
        const { controller, ctx } = await onController(runner, address, 'reorder:write', options);
        return saveOrder(controller, { nodes: [...nodes] }, ctx);
      },
    },
  };
}
