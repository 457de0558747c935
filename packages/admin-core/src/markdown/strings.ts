import type { StringTable } from '../i18n/strings.ts';

/** The markdown preview's refusals (`backend::markdown.*`); `{max}` is in KiB. */
export const markdownStrings: StringTable = {
  en: {
    'markdown.input_too_large': 'This text is too long to preview (at most {max} KB of Markdown).',
    'markdown.output_too_large': 'The preview of this text is too large to show (more than {max} KB of HTML).',
    'markdown.too_complex': 'This text holds markup that is nested too deeply or too tangled to preview.',
  },
  de: {
    'markdown.input_too_large': 'Dieser Text ist für die Vorschau zu lang (höchstens {max} KB Markdown).',
    'markdown.output_too_large': 'Die Vorschau dieses Textes ist zu groß für die Anzeige (mehr als {max} KB HTML).',
    'markdown.too_complex': 'Dieser Text enthält für die Vorschau zu tief verschachteltes oder zu verworrenes Markup.',
  },
};
