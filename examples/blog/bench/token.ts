import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** How the floor stores and checks its bearer token: only the SHA-256 is in the database. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** What the token-verify floor's signed token carries (docs/performance.md, "The floors"). */
export interface SignedClaims {
  /** The admin's id. */
  sub: number;
  superuser: boolean;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

const mac = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest();

/** `base64url(JSON claims) "." base64url(HMAC-SHA256(secret, first part))`, as a signed cookie would be. */
export function signToken(claims: SignedClaims, secret: string): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** The claims of a token signed with `secret` and not expired; anything else is undefined. */
export function verifyToken(token: string, secret: string, now = Date.now()): SignedClaims | undefined {
  const dot = token.indexOf('.');
  if (dot <= 0) return undefined;
  const payload = token.slice(0, dot);
  const signature = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = mac(secret, payload);
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<SignedClaims>;
    if (typeof claims.sub !== 'number' || typeof claims.exp !== 'number' || claims.exp * 1000 <= now) return undefined;
    return { sub: claims.sub, superuser: claims.superuser === true, exp: claims.exp };
  } catch {
    return undefined;
  }
}
