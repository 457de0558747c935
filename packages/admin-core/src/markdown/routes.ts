import { object, string } from 'yup';
import { Validation } from '../errors/index.ts';
import { ok } from '../http/envelope.ts';
import type { RouteDefinition } from '../http/types.ts';
import { validateBody } from '../validation/body.ts';
import { MARKDOWN_PREVIEW_MAX_INPUT_BYTES, MARKDOWN_PREVIEW_MAX_OUTPUT_BYTES, previewMarkdownInBackground } from './preview.ts';

/** Exactly `{markdown: string}`; `""` is a valid (empty) preview. */
const previewBody = object({ markdown: string().defined() });

const KIB = 1024;

/**
 * `POST /markdown/preview` (docs/assets.md): any signed-in admin, `X-Requested-With` on every transport
 * (it is an editor's request, never a form's). Answers `{data: {html}, meta: {}}`; a refusal is a
 * 422 `validation_failed` with one fixed message on `markdown`.
 */
export const markdownRoutes: RouteDefinition[] = [
  {
    method: 'POST',
    path: '/markdown/preview',
    requireXhr: true,
    body: 'json',
    async handler(req, ctx) {
      const { markdown } = validateBody(previewBody, req.body, ctx.services.strings, ctx.locale);
      const result = await previewMarkdownInBackground(markdown);
      if ('refused' in result) {
        const max = (result.refused === 'input_too_large' ? MARKDOWN_PREVIEW_MAX_INPUT_BYTES : MARKDOWN_PREVIEW_MAX_OUTPUT_BYTES) / KIB;
        throw Validation({ markdown: [ctx.t(`backend::markdown.${result.refused}`, { max })] });
      }
      return ok({ html: result.html });
    },
  },
];
