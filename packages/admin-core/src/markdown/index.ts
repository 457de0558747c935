export { markdownRoutes } from './routes.ts';
export { markdownStrings } from './strings.ts';
export { previewMarkdown, MARKDOWN_PREVIEW_MAX_INPUT_BYTES, MARKDOWN_PREVIEW_MAX_OUTPUT_BYTES, type MarkdownRefusal } from './preview.ts';
