import { randomBytes } from 'node:crypto';
import type { UiBundle } from '../ui/bundle.ts';

/** Headers of every HTML page the admin serves. */
export const shellSecurityHeaders = (nonce: string): Record<string, string> => ({
  'Content-Security-Policy': [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self'",
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

/** The page body when no application is served: a sentence instead of a blank page (docs/admin-ui.md, "Package and serving"). */
const MISSING: Partial<Record<UiBundle['state'], string>> = {
  'not-built':
    'The admin application is not built. Build it with <code>npx -y pnpm@12.21.0 --filter @cms/admin-ui build</code> in the workspace (a host installs the built package from npm).',
  'not-installed':
    'The admin application is not installed. Install <code>@cms/admin-ui</code> beside <code>@cms/admin-core</code> (docs/host-guide.md).',
};

export interface ShellOptions {
  prefix: string;
  apiBase: string;
  locale: string;
  locales: readonly string[];
  fallbackLocale: string;
  /** The themes a preference may name (`config.themes`). */
  themes: readonly string[];
  /** The application to load; without one (default `off`) the page carries the boot data only. */
  ui?: UiBundle;
  title?: string;
}

/**
 * The admin application's shell: one HTML page for `{prefix}` and every non-API path under it
 * (client-side routing). The boot data is JSON in a non-executable script tag; a built application
 * adds its style sheets, `modulepreload` links and its entry as a module script carrying the
 * page's nonce (docs/admin-ui.md, "Package and serving").
 */
export function renderShell(options: ShellOptions) {
  const nonce = randomBytes(16).toString('base64');
  const ui = options.ui ?? { state: 'off' };
  const assetBase = `${options.prefix}/assets/_ui/`;
  const boot = escapeScriptJson({
    prefix: options.prefix,
    apiBase: options.apiBase,
    locale: options.locale,
    locales: options.locales,
    fallbackLocale: options.fallbackLocale,
    themes: options.themes,
    version: ui.state === 'served' ? ui.version : null,
    assetBase,
  });
  const url = (file: string) => escapeHtml(assetBase + file);
  const load =
    ui.state === 'served'
      ? [
          ...ui.css.map((file) => `<link rel="stylesheet" href="${url(file)}">\n`),
          ...ui.preload.map((file) => `<link rel="modulepreload" href="${url(file)}">\n`),
          `<script type="module" nonce="${escapeHtml(nonce)}" src="${url(ui.entry)}"></script>\n`,
        ].join('')
      : '';
  const missing = MISSING[ui.state];
  const content = missing ? `<p>${missing}</p>` : '<noscript>The admin needs JavaScript.</noscript>';
  const html = `<!doctype html>
<html lang="${escapeHtml(options.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(options.title ?? 'Admin')}</title>
<script type="application/json" id="cms-admin-boot">${boot}</script>
${load}</head>
<body>
<div id="app" data-api="${escapeHtml(options.apiBase)}">${content}</div>
</body>
</html>
`;
  return { html, headers: shellSecurityHeaders(nonce) };
}
