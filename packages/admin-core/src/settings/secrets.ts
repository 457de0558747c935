import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SEALED = /^v1\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]*)\.([A-Za-z0-9_-]{22})$/;

/**
 * Seals settings secrets with AES-256-GCM under a key derived by HKDF-SHA256 from the admin's
 * `secret` (its own `info`, so the key differs from the one that seals tokens). Every value gets
 * a random 96-bit IV; the settings code and field name are the additional authenticated data, so
 * a sealed value copied to another field or code does not open. A value sealed under another
 * `secret`, or altered in the database, does not open either: `open` answers `undefined`.
 *
 * The sealed form is text, `v1.<iv>.<ciphertext>.<tag>` in base64url: it keeps its length
 * (a sealed value tells how long the secret is, nothing more).
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'cms.backend/settings', 'cms settings secrets v1', 32));
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
  }

  /** The plain text, or `undefined` when the value is not one this key sealed for `context`. */
  open(sealed: unknown, context: string): string | undefined {
    const match = typeof sealed === 'string' ? SEALED.exec(sealed) : null;
    if (!match) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(match[1]!, 'base64url'), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(match[3]!, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(match[2]!, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}

/** The additional authenticated data of one secret: where it belongs. */
export const secretContext = (code: string, field: string): string => `cms_settings:${code}:${field}`;
