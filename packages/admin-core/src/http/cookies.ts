export const SESSION_COOKIE = 'cms_admin';

/** Reads one cookie from a `Cookie` header; undefined when absent or malformed. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) {
      const value = part.slice(index + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Builds a `Set-Cookie` value: HttpOnly, SameSite=Strict, scoped to the admin prefix. */
export function serializeCookie(
  name: string,
  value: string | null,
  options: { path: string; secure: boolean; maxAgeSeconds?: number },
): string {
  const parts = [`${name}=${value === null ? '' : encodeURIComponent(value)}`, `Path=${options.path}`, 'HttpOnly', 'SameSite=Strict'];
  if (options.secure) parts.push('Secure');
  if (value === null) parts.push('Max-Age=0', 'Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  else if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  return parts.join('; ');
}
