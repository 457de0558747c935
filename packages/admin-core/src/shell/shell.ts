import { randomBytes } from 'node:crypto';

/** Headers of every HTML page the admin serves. */
export const shellSecurityHeaders = (nonce: string): Record<string, string> => ({
  'Content-Security-Policy': [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  'Cache-Control': 'no-cache',
});

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * JSON safe inside a `<script>` element: `<`, `>` and `&` cannot open `</script>` or `<!--`, and
 * the line separators U+2028/U+2029 cannot end a line if a client ever evaluates the text.
 */
const escapeScriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The admin application's shell: one HTML page for `{prefix}` and every non-API path under it
 * (client-side routing). The boot data is JSON in a non-executable script tag.
 */
export function renderShell(options: { prefix: string; apiBase: string; locale: string; locales: readonly string[]; title?: string }) {
  const nonce = randomBytes(16).toString('base64');
  const boot = escapeScriptJson({ prefix: options.prefix, apiBase: options.apiBase, locale: options.locale, locales: options.locales });
  const html = `<!doctype html>
<html lang="${escapeHtml(options.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(options.title ?? 'Admin')}</title>
<script type="application/json" id="cms-admin-boot">${boot}</script>
</head>
<body>
<div id="app" data-api="${escapeHtml(options.apiBase)}"><noscript>The admin needs JavaScript.</noscript></div>
</body>
</html>
`;
  return { html, headers: shellSecurityHeaders(nonce) };
}
