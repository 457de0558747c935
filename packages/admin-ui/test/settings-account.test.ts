import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { AVATAR_MAX_BYTES, avatarProblem, emailProblem, tokenDays } from '../src/screens/account-logic.ts';

describe('emailProblem: the account’s email before it is sent', () => {
  test('required, 6 to 255 characters, one @ and a dotted domain', () => {
    expect(emailProblem('')).toBe('required');
    expect(emailProblem('   ')).toBe('required');
    expect(emailProblem('a@b.c')).toBe('length');
    expect(emailProblem(`${'a'.repeat(250)}@example.com`)).toBe('length');
    expect(emailProblem('not-an-address')).toBe('format');
    expect(emailProblem('two@@example.com')).toBe('format');
    expect(emailProblem('name@localhost')).toBe('format');
    expect(emailProblem('name@example.com')).toBeUndefined();
    expect(emailProblem('  name@example.com ')).toBeUndefined();
  });

  test('an address of the usual shape passes', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9._+-]{1,30}$/), fc.stringMatching(/^[a-z0-9-]{1,20}$/), (local, domain) => {
        expect(emailProblem(`${local}@${domain}.example`)).toBeUndefined();
      }),
    );
  });
});

describe('avatarProblem: a picked picture before it is sent', () => {
  test('jpg, png, gif and webp up to 2 MiB', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/gif', 'image/webp'])
      expect(avatarProblem({ name: 'me', size: AVATAR_MAX_BYTES, type })).toBeUndefined();
    expect(avatarProblem({ name: 'me.png', size: AVATAR_MAX_BYTES + 1, type: 'image/png' })).toBe('size');
    expect(avatarProblem({ name: 'me.svg', size: 10, type: 'image/svg+xml' })).toBe('type');
    expect(avatarProblem({ name: 'notes.txt', size: 10, type: 'text/plain' })).toBe('type');
  });

  test('without a type, the name’s extension decides', () => {
    expect(avatarProblem({ name: 'ME.JPEG', size: 10, type: '' })).toBeUndefined();
    expect(avatarProblem({ name: 'me.webp', size: 10, type: '' })).toBeUndefined();
    expect(avatarProblem({ name: 'me.bmp', size: 10, type: '' })).toBe('type');
    expect(avatarProblem({ name: 'png', size: 10, type: '' })).toBe('type');
  });
});

describe('tokenDays: a token’s expiry as typed', () => {
  test('empty is no expiry; 1 to 3650 whole days; anything else is refused', () => {
    expect(tokenDays('')).toBeNull();
    expect(tokenDays('  ')).toBeNull();
    expect(tokenDays('1')).toBe(1);
    expect(tokenDays(' 30 ')).toBe(30);
    expect(tokenDays('3650')).toBe(3650);
    for (const typed of ['0', '3651', '99999', '-1', '1.5', '1e3', 'ten', '٣']) expect(tokenDays(typed)).toBe('invalid');
  });

  test('every whole number in range reads back as itself', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 3650 }), (days) => tokenDays(String(days)) === days));
  });
});
