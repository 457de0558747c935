import { createHash, randomBytes } from 'node:crypto';
import { defaults, seal, unseal } from 'iron-webcrypto';

/** What a sealed access token carries: the session it names and when it was issued. */
export interface AccessTokenPayload {
  sid: string;
  iat: number;
}

/** Seals and unseals access tokens with the configured secret (iron: AES-256-CBC + HMAC-SHA256). */
export class TokenSealer {
  readonly #secret: string;
  readonly #ttlMs: number;

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
    try {
      const payload = (await unseal(token, this.#secret, { ...defaults, ttl: this.#ttlMs })) as AccessTokenPayload;
      return typeof payload?.sid === 'string' && typeof payload.iat === 'number' ? payload : undefined;
    } catch {
      return undefined;
    }
  }
}

export const newSessionId = () => randomBytes(32).toString('base64url');

/** Personal API tokens: `cms_pat_` and 32 random bytes; only the SHA-256 is stored. */
export const API_TOKEN_PREFIX = 'cms_pat_';
export const newApiToken = () => `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
export const hashApiToken = (token: string) => createHash('sha256').update(token).digest('hex');
