import { Validation } from '../errors/index.ts';
import { ok } from '../http/envelope.ts';
import type { RouteDefinition } from '../http/types.ts';
import { exact, string } from '../schema/json.ts';
import { headerParam, jsonBody, ok as described } from '../schema/route.ts';
import { MARKDOWN_PREVIEW_MAX_INPUT_BYTES, MARKDOWN_PREVIEW_MAX_OUTPUT_BYTES, previewMarkdownInBackground } from './preview.ts';

const XHR = headerParam('X-Requested-With', 'Required on every transport (for example `XMLHttpRequest`).', string({ minLength: 1 }), true);

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
      // Exactly `{markdown: string}` (the pipeline checked it); `""` is a valid (empty) preview.
      const { markdown } = req.body as { markdown: string };
      const result = await previewMarkdownInBackground(markdown);
      if ('refused' in result) {
        const max = (result.refused === 'input_too_large' ? MARKDOWN_PREVIEW_MAX_INPUT_BYTES : MARKDOWN_PREVIEW_MAX_OUTPUT_BYTES) / KIB;
        throw Validation({ markdown: [ctx.t(`backend::markdown.${result.refused}`, { max })] });
      }
      return ok({ html: result.html });
    },
    schema: {
      id: 'markdown.preview',
      summary: 'Render Markdown',
      parameters: [XHR],
      body: jsonBody(exact({ markdown: string({ description: `At most ${MARKDOWN_PREVIEW_MAX_INPUT_BYTES} bytes.` }) })),
      success: described('The sanitized HTML.', exact({ html: string() })),
    },
  },
];
