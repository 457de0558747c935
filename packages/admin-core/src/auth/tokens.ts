import { createHash, randomBytes } from 'node:crypto';
import { defaults, seal, unseal } from 'iron-webcrypto';

/** What a sealed access token carries: the session it names and when it was issued. */
export interface AccessTokenPayload {
  sid: string;
  iat: number;
}

/**
 * Unsealed tokens kept per sealer. A client presents the same token on every request until it
 * refreshes, and unsealing costs two PBKDF2 key derivations, an HMAC and an AES decryption
 * through WebCrypto (about 0.15 ms of CPU, a fifth of a simple admin request's). Only tokens
 * that unsealed with this secret are kept, never past their sealed expiry, so a cached answer is
 * the one iron would give; whether the session is still good is checked in the database on
 * every request regardless. Oldest entries go first beyond the limit.
 */
const UNSEALED_CACHE_SIZE = 1000;

/** Seals and unseals access tokens with the configured secret (iron: AES-256-CBC + HMAC-SHA256). */
export class TokenSealer {
  readonly #secret: string;
  readonly #ttlMs: number;
  readonly #unsealed = new Map<string, { payload: AccessTokenPayload; expiresAt: number }>();

  constructor(secret: string, ttlSeconds: number) {
    this.#secret = secret;
    this.#ttlMs = ttlSeconds * 1000;
  }

  seal(payload: AccessTokenPayload): Promise<string> {
    return seal(payload, this.#secret, { ...defaults, ttl: this.#ttlMs });
  }

  /** The payload, or undefined for a tampered, expired or foreign token. */
  async unseal(token: string): Promise<AccessTokenPayload | undefined> {
    if (token.length > 4096 || !token.startsWith('Fe26.2*')) return undefined;
    const cached = this.#unsealed.get(token);
    if (cached) {
      if (Date.now() < cached.expiresAt) return { ...cached.payload };
      this.#unsealed.delete(token);
    }
    let payload: AccessTokenPayload;
    try {
      payload = (await unseal(token, this.#secret, { ...defaults, ttl: this.#ttlMs })) as AccessTokenPayload;
    } catch {
      return undefined;
    }
    if (typeof payload?.sid !== 'string' || typeof payload.iat !== 'number') return undefined;
    // The sixth field is the expiry iron sealed (and has just authenticated), in milliseconds.
    const expiresAt = Number(token.split('*')[5]);
    if (Number.isFinite(expiresAt) && expiresAt > 0) {
      if (this.#unsealed.size >= UNSEALED_CACHE_SIZE) this.#unsealed.delete(this.#unsealed.keys().next().value!);
      this.#unsealed.set(token, { payload: { sid: payload.sid, iat: payload.iat }, expiresAt });
    }
    return payload;
  }
}

export const newSessionId = () => randomBytes(32).toString('base64url');

/** Personal API tokens: `cms_pat_` and 32 random bytes; only the SHA-256 is stored. */
export const API_TOKEN_PREFIX = 'cms_pat_';
export const newApiToken = () => `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
export const hashApiToken = (token: string) => createHash('sha256').update(token).digest('hex');
