import type { Messages } from './strings.ts';

/**
 * The admin application's strings of its reorder screens and controls (`backend::ui.*`,
 * docs/admin-ui.md, "Strings, locale and theme"), merged into ui-strings.ts. Keys start with `ui.`;
 * `en` and `de` both complete.
 */
export const reorderStrings = {
  en: {} as Messages,
  de: {} as Messages,
};
