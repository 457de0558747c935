import { describe, expect, it } from 'vitest';
import { hasPermission, hasPermissions } from '../../src/auth/permissions.ts';
import type { Principal, PrincipalAdmin } from '../../src/auth/principal.ts';

const principal = (admin: Partial<PrincipalAdmin> = {}, kind: Principal['kind'] = 'session'): Principal => ({
  kind,
  admin: {
    id: 1,
    login: 'a',
    email: 'a@example.com',
    firstName: '',
    lastName: '',
    subtitle: '',
    isSuperuser: false,
    permissions: {},
    metadata: {},
    role: null,
    ...admin,
  },
});

const role = (permissions: Record<string, number>) => ({ id: 1, code: 'editor', name: 'Editor', permissions });

describe('hasPermission', () => {
  it('refuses without a principal', () => {
    expect(hasPermission(undefined, 'cms.journal.access_posts')).toBe(false);
  });

  it('lets a superuser do everything, even against a per-admin deny', () => {
    const su = principal({ isSuperuser: true, permissions: { 'x.y': -1 } });
    expect(hasPermission(su, 'x.y')).toBe(true);
    expect(hasPermission(su, 'anything.at.all')).toBe(true);
  });

  it('grants what the role grants', () => {
    const p = principal({ role: role({ 'cms.journal.access_posts': 1 }) });
    expect(hasPermission(p, 'cms.journal.access_posts')).toBe(true);
    expect(hasPermission(p, 'cms.journal.access_comments')).toBe(false);
  });

  it('grants a per-admin grant without any role', () => {
    expect(hasPermission(principal({ permissions: { 'x.y': 1 } }), 'x.y')).toBe(true);
  });

  it('lets a per-admin deny beat the role grant', () => {
    const p = principal({ permissions: { 'x.y': -1 }, role: role({ 'x.y': 1 }) });
    expect(hasPermission(p, 'x.y')).toBe(false);
  });

  it('lets a per-admin grant add to the role', () => {
    const p = principal({ permissions: { 'x.z': 1 }, role: role({ 'x.y': 1 }) });
    expect(hasPermission(p, 'x.y')).toBe(true);
    expect(hasPermission(p, 'x.z')).toBe(true);
  });

  it('refuses an unknown code and any value other than 1', () => {
    const p = principal({
      permissions: { 'x.zero': 0, 'x.two': 2, 'x.str': '1' as unknown as number, 'x.true': true as unknown as number },
      role: role({ 'x.r0': 0, 'x.rdeny': -1 }),
    });
    for (const code of [
      'unknown.code',
      'x.zero',
      'x.two',
      'x.str',
      'x.true',
      'x.r0',
      'x.rdeny',
      '',
      '__proto__',
      'toString',
      'constructor',
    ]) {
      expect(hasPermission(p, code), code).toBe(false);
    }
  });

  it('decides the same for a personal API token principal', () => {
    const p = principal({ permissions: { 'x.y': 1 } }, 'api_token');
    expect(hasPermission(p, 'x.y')).toBe(true);
    expect(hasPermission(p, 'x.z')).toBe(false);
  });
});

describe('hasPermissions', () => {
  const p = principal({ permissions: { a: 1, b: 1 } });

  it('needs all codes by default', () => {
    expect(hasPermissions(p, ['a', 'b'])).toBe(true);
    expect(hasPermissions(p, ['a', 'c'])).toBe(false);
  });

  it('needs any one code in `any` mode', () => {
    expect(hasPermissions(p, ['c', 'b'], 'any')).toBe(true);
    expect(hasPermissions(p, ['c', 'd'], 'any')).toBe(false);
  });

  it('passes an empty list for a principal only', () => {
    expect(hasPermissions(p, [])).toBe(true);
    expect(hasPermissions(p, undefined)).toBe(true);
    expect(hasPermissions(undefined, [])).toBe(false);
  });
});
