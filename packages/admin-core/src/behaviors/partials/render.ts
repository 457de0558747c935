import type { OperationContext, RequestContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { NotFound, Validation } from '../../errors/index.ts';
import { MAX_ID } from '../../http/params.ts';
import { encodeRecord, readRecord } from '../form/record.ts';
import { compiledPartials } from './check.ts';
import { renderTemplate, viewData, type Translate } from './engine.ts';
import { partialNodes } from './nodes.ts';
import type { PartialContext, PartialView } from './types.ts';

const RECORD_ID = /^[1-9]\d{0,9}$/;

/**
 * `?id=` of a partial: accepted only by a form partial, and only as a record id (a positive
 * integer); anything else is a 422 naming `id`. Undefined when absent.
 */
function partialRecordId(form: boolean, raw: unknown, ctx: Pick<RequestContext, 't'>): number | undefined {
  if (raw === undefined) return undefined;
  if (!form) throw Validation({ id: [ctx.t('backend::partials.id_not_accepted')] });
  if (typeof raw !== 'string' || !RECORD_ID.test(raw) || Number(raw) > MAX_ID)
    throw Validation({ id: [ctx.t('backend::partials.id_invalid')] });
  return Number(raw);
}

/**
 * Renders the controller's partial `name` (docs/partials.md): an unregistered name is 404; with
 * `id` (form partials only) the record is read through the form scope (out of scope or missing
 * is 404) and handed to the view model; the template renders the view model, and its output
 * becomes an allowlisted node tree. A partial over a limit, a render error or a view model that
 * is not plain data is the partial's fault: an opaque 500 whose log line names the reason.
 */
export async function renderPartial(
  controller: ResolvedController,
  name: string,
  query: { id?: unknown },
  ctx: OperationContext,
): Promise<PartialView> {
  const partials = compiledPartials(controller.config);
  const partial = partials.get(name);
  if (!partial) throw NotFound();
  const id = partialRecordId(partial.config.form === true, query.id, ctx);
  const t: Translate = (key, params, count) => ctx.t(key, params, count);
  const partialCtx: PartialContext = { principal: ctx.principal, em: ctx.em(), locale: ctx.locale, t };
  if (id !== undefined) {
    const row = await readRecord(controller, id, ctx);
    const encoded = await encodeRecord(controller, row, ctx);
    partialCtx.record = encoded.data;
    partialCtx.labels = encoded.meta.labels;
  }
  const model = partial.config.viewModel
    ? await partial.config.viewModel(partialCtx)
    : partialCtx.record
      ? { record: partialCtx.record, labels: partialCtx.labels }
      : {};
  try {
    const data = viewData(model);
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('the view model must be an object');
    return { nodes: partialNodes(renderTemplate(partial.template, data as Record<string, unknown>, t)) };
  } catch (error) {
    // Not an AdminError: an opaque 500, whose log line (this message and stack) names the partial and the reason.
    throw new Error(`partial ${controller.address}/partials/${name}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
