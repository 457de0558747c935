import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SecretBox, secretContext } from '../../src/settings/secrets.ts';

const KEY = 'k'.repeat(40);
const HERE = secretContext('shop', 'api_key');

describe('SecretBox (AES-256-GCM, HKDF-derived key)', () => {
  const box = new SecretBox(KEY);

  it('opens what it sealed, for the same place only', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (plain) => {
        const sealed = box.seal(plain, HERE);
        expect(box.open(sealed, HERE)).toBe(plain);
        expect(box.open(sealed, secretContext('shop', 'other'))).toBeUndefined();
      }),
      { seed: 7, numRuns: 200 },
    );
  });

  it('uses a fresh IV for every value: one secret sealed twice differs', () => {
    const a = box.seal('same', HERE);
    const b = box.seal('same', HERE);
    expect(a).not.toBe(b);
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
  });

  it('does not open under another secret, nor when altered anywhere', () => {
    const sealed = box.seal('the plain text', HERE);
    expect(new SecretBox('j'.repeat(40)).open(sealed, HERE)).toBeUndefined();
    const parts = sealed.split('.');
    for (let part = 1; part < 4; part++) {
      const altered = [...parts];
      const text = altered[part]!;
      altered[part] = `${text.slice(0, -2)}${text.at(-2) === 'A' ? 'B' : 'A'}${text.at(-1)}`;
      expect(box.open(altered.join('.'), HERE), `part ${part}`).toBeUndefined();
    }
    for (const garbage of [undefined, null, 42, {}, '', 'v1', 'v2.a.b.c', `v0.${parts.slice(1).join('.')}`, `${sealed}.x`]) {
      expect(box.open(garbage, HERE)).toBeUndefined();
    }
  });

  it('keeps no trace of the plain text in the sealed form', () => {
    const plain = 'sk_live_plaintext_1234567890';
    const sealed = box.seal(plain, HERE);
    for (const form of [
      plain,
      Buffer.from(plain).toString('base64'),
      Buffer.from(plain).toString('base64url'),
      Buffer.from(plain).toString('hex'),
    ])
      expect(sealed).not.toContain(form);
  });
});
