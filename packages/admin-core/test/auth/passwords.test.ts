import { describe, expect, it } from 'vitest';
import { dummyHash, hashPassword, verifyPassword } from '../../src/auth/passwords.ts';

describe('passwords', () => {
  it('hashes with scrypt and a recorded cost, salted', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct');
  });

  it('verifies the right password and refuses others', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('treats canonically equal Unicode passwords alike (NFKC)', async () => {
    const hash = await hashPassword('caf\u00e9');
    expect(await verifyPassword('cafe\u0301', hash)).toBe(true);
  });

  it('refuses malformed stored hashes instead of throwing', async () => {
    for (const stored of ['', 'plain', 'scrypt$', 'bcrypt$2$8$1$salt$hash', 'scrypt$x$8$1$c2FsdA$aGFzaA', 'scrypt$32768$8$1$$']) {
      expect(await verifyPassword('anything', stored), stored).toBe(false);
    }
  });

  it('keeps a dummy hash for unknown logins that no password matches', async () => {
    const dummy = await dummyHash();
    expect(await dummyHash()).toBe(dummy);
    expect(await verifyPassword('', dummy)).toBe(false);
  });
});
