import { configError } from './common.ts';
import { sanitizedTextField } from './richeditor.ts';
import type { FieldType } from './types.ts';

/**
 * An `uploadRoute` (docs/field-types.md, "richeditor and markdown"): an absolute path on the
 * admin's own origin, `/` and then no second `/` or `\` (that would name another host), made of
 * the characters of a URL path (no scheme, query, fragment, space or control character; no `.` or `..` segment), at most
 * 512 characters. The editor posts images there, so it is never another site's address.
 */
const UPLOAD_ROUTE = /^\/(?![/\\])[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
const UPLOAD_ROUTE_MAX = 512;

const base = sanitizedTextField('markdown', 'markdown');

/**
 * Markdown source, kept as written except for raw HTML inside it, which is sanitized on save
 * (see `sanitizeMarkdown` in markup/markdown.ts). The preview route (`markdown/preview.ts`)
 * renders it with markdown-it and sanitizes the HTML again with the same policy. `uploadRoute`
 * names where the editor uploads images (served in the FormField as written).
 */
export const markdownField: FieldType = {
  ...base,
  keys: [...(base.keys ?? []), 'uploadRoute'],
  check(field, ctx) {
    base.check?.(field, ctx);
    const route = field.uploadRoute;
    if (route === undefined) return;
    const valid =
      typeof route === 'string' &&
      route.length <= UPLOAD_ROUTE_MAX &&
      UPLOAD_ROUTE.test(route) &&
      !route.split('/').some((segment) => segment === '.' || segment === '..');
    if (!valid) {
      throw configError(
        ctx,
        'field_option_invalid',
        'uploadRoute',
        `${JSON.stringify(route)} is not a path on the admin's own origin`,
        'Use the absolute path of an upload route of this host, starting with one "/" and without scheme, host, "//", "..", query or fragment, for example "/_journal/api/v1/media/upload".',
      );
    }
  },
  schema: (field) => (field.uploadRoute === undefined ? {} : { uploadRoute: field.uploadRoute }),
};
