import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoginThrottle, normalizeLoginKey } from '../../src/auth/throttle.ts';

describe('normalizeLoginKey', () => {
  it.each([
    ['admin', 'admin'],
    ['Admin', 'admin'],
    ['ADMIN ', 'admin'],
    ['  admin', 'admin'],
    ['admin/', 'admin'],
    ['admin//', 'admin'],
    ['admin\\', 'admin'],
    ['admin.', 'admin'],
    ['admin/ ', 'admin'],
    ['ad\u200bmin', 'admin'],
    ['\ufeffadmin', 'admin'],
    ['ａｄｍｉｎ', 'admin'], // full-width letters fold under NFKC
    ['Admin@Example.COM', 'admin@example.com'],
  ])('%j counts as %j', (input, expected) => {
    expect(normalizeLoginKey(input)).toBe(expected);
  });

  it('keeps different logins apart', () => {
    expect(normalizeLoginKey('admin1')).not.toBe(normalizeLoginKey('admin'));
    expect(normalizeLoginKey('ad/min')).toBe('ad/min');
    expect(normalizeLoginKey('a.dmin')).toBe('a.dmin');
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 50, unit: 'grapheme' }), (value) => {
        const once = normalizeLoginKey(value);
        expect(normalizeLoginKey(once)).toBe(once);
      }),
    );
  });

  it('ignores case and trailing slashes of any login', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9_@.-]{1,30}[a-z0-9]$/), fc.constantFrom('', '/', ' ', '//', '/ '), (login, suffix) => {
        expect(normalizeLoginKey(login.toUpperCase() + suffix)).toBe(normalizeLoginKey(login));
      }),
    );
  });
});

describe('LoginThrottle keys', () => {
  const throttle = new LoginThrottle({ login: { max: 3, windowSeconds: 60 }, address: { max: 10, windowSeconds: 60 } });

  it('prefixes login and address keys so they never collide', () => {
    expect(throttle.keys('Admin/', '127.0.0.1')).toEqual({ login: 'login:admin', address: 'address:127.0.0.1' });
    expect(throttle.keys('address:1', '1').login).not.toBe(throttle.keys('x', '1').address);
  });

  it('keys an account by its id, apart from any identifier counter', () => {
    expect(throttle.keys({ account: 7 }, '127.0.0.1')).toEqual({ login: 'account:7', address: 'address:127.0.0.1' });
    expect(throttle.keys('account:7', '127.0.0.1').login).toBe('login:account:7');
  });

  it('fits the key column', () => {
    const keys = throttle.keys('x'.repeat(1000), 'y'.repeat(1000));
    expect(keys.login.length).toBeLessThanOrEqual(320);
    expect(keys.address.length).toBeLessThanOrEqual(320);
  });
});
