/**
 * The application's routes under `{prefix}` (docs/admin-ui.md, "Routes"), History API. A route is
 * parsed from the path; anything the table does not know is the 404 screen.
 */
export type Route =
  | { name: 'login' }
  | { name: 'dashboard' }
  | { name: 'list'; ctl: string }
  | { name: 'record'; ctl: string; id: string; context: 'update' | 'preview' }
  | { name: 'create'; ctl: string }
  | { name: 'reorder'; ctl: string }
  | { name: 'settings' }
  | { name: 'settings-form'; code: string }
  | { name: 'account'; section: 'profile' | 'preferences' }
  | { name: 'not-found' };

const SEGMENT = /^[a-z][a-z0-9_-]*$/i;

export function parseRoute(pathname: string, prefix: string): Route {
  if (pathname !== prefix && !pathname.startsWith(`${prefix}/`)) return { name: 'not-found' };
  const rest = pathname.slice(prefix.length).replace(/\/+$/, '');
  if (rest === '') return { name: 'dashboard' };
  if (rest === '/login') return { name: 'login' };
  if (rest === '/settings') return { name: 'settings' };
  if (rest === '/account') return { name: 'account', section: 'profile' };
  if (rest === '/account/preferences') return { name: 'account', section: 'preferences' };
  const settings = /^\/settings\/([a-z0-9][a-z0-9_.-]*)$/i.exec(rest);
  if (settings) return { name: 'settings-form', code: settings[1]! };
  const parts = rest.slice(1).split('/');
  if (parts.length < 3 || !parts.slice(0, 3).every((part) => SEGMENT.test(part))) return { name: 'not-found' };
  const ctl = parts.slice(0, 3).join('/');
  if (parts.length === 3) return { name: 'list', ctl };
  if (parts.length === 4 && parts[3] === 'create') return { name: 'create', ctl };
  if (parts.length === 4 && parts[3] === 'reorder') return { name: 'reorder', ctl };
  if (parts.length === 5 && (parts[3] === 'update' || parts[3] === 'preview') && /^[1-9]\d{0,15}$/.test(parts[4]!)) {
    return { name: 'record', ctl, id: parts[4]!, context: parts[3] };
  }
  return { name: 'not-found' };
}

/**
 * A target from a schema (`recordUrl`, a form's `redirects`) as an application path, or undefined
 * when it is not one: the grammar is a relative route `{ctl}/{context}/:id` or `{ctl}` made of
 * plain segments (docs/admin-ui.md, "Targets"). Anything else — a scheme, `//`, `..`, a query —
 * is ignored, so a schema can never send the admin elsewhere.
 */
export function targetPath(target: string, prefix: string, values: { ctl: string; id?: string | number }): string | undefined {
  const filled = target.replaceAll('{ctl}', values.ctl).replaceAll(':id', values.id === undefined ? ':id' : String(values.id));
  if (!/^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*$/i.test(filled)) return undefined;
  const path = `${prefix}/${filled}`;
  return parseRoute(path, prefix).name === 'not-found' ? undefined : path;
}

/**
 * `?next=` after sign-in: an application path under the prefix, never another origin
 * (docs/admin-ui.md, "Security"). The value is resolved against the origin as the browser would
 * resolve it (dot segments, `%2e`, backslashes), and the resolved path is checked, not the raw
 * string: `/backend/../..//evil.example` resolves to `//evil.example` and is refused. Anything
 * refused is the dashboard, silently.
 */
export function safeNext(next: string | null, prefix: string, origin: string = location.origin): string {
  if (!next) return prefix;
  let url: URL;
  try {
    url = new URL(next, `${origin}/`);
  } catch {
    return prefix;
  }
  const path = url.pathname;
  if (url.origin !== origin || path.startsWith('//') || (path !== prefix && !path.startsWith(`${prefix}/`))) return prefix;
  if (path.startsWith(`${prefix}/login`)) return prefix;
  return path + url.search + url.hash;
}
