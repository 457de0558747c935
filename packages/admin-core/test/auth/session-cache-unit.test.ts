import { describe, expect, it } from 'vitest';
import { SessionCache } from '../../src/auth/session-cache.ts';
import type { PrincipalAdmin } from '../../src/auth/principal.ts';
import { resolveConfig } from '../../src/config/resolve.ts';
import { expectConfigError } from '../support/config-error.ts';

const admin = (id: number, roleId: number | null = null): PrincipalAdmin => ({
  id,
  login: `a${id}`,
  email: `a${id}@example.com`,
  firstName: '',
  lastName: '',
  subtitle: '',
  isSuperuser: false,
  permissions: { 'x.y': 1 },
  metadata: {},
  role: roleId == null ? null : { id: roleId, code: `r${roleId}`, name: `r${roleId}`, permissions: {} },
});

/** A listening cache with `s1` (admin 1, role 7), `s2` (admin 1), `s3` (admin 2, role 7), `s4` (admin 3). */
function filled(maxAgeMs = 5000) {
  const cache = new SessionCache({ maxAgeMs });
  cache.listening();
  const fill = (sid: string, a: PrincipalAdmin) => cache.fill(sid, a, 60_000, cache.epoch, 0);
  fill('s1', admin(1, 7));
  fill('s2', admin(1));
  fill('s3', admin(2, 7));
  fill('s4', admin(3));
  return cache;
}
const present = (cache: SessionCache) => ['s1', 's2', 's3', 's4'].filter((sid) => cache.get(sid, 1) !== undefined);

/** The session cache's rules without a database (docs/auth.md, "Session cache"). */
describe('SessionCache', () => {
  it('evicts what a notification names: a session, an admin, a role, or everything', () => {
    expect(present(filled())).toEqual(['s1', 's2', 's3', 's4']);
    let cache = filled();
    cache.invalidate('s:s3');
    expect(present(cache)).toEqual(['s1', 's2', 's4']);
    cache = filled();
    cache.invalidate('a:1');
    expect(present(cache)).toEqual(['s3', 's4']);
    cache = filled();
    cache.invalidate('r:7');
    expect(present(cache)).toEqual(['s2', 's4']);
    for (const payload of ['*', '', 'garbage', 'x:1']) {
      cache = filled();
      cache.invalidate(payload);
      expect(present(cache)).toEqual([]);
    }
  });

  it('does not store an answer read before an invalidation that arrived meanwhile', () => {
    const cache = new SessionCache({ maxAgeMs: 5000 });
    cache.listening();
    const before = cache.epoch;
    // The guard query is on its way; a notification for another admin comes in.
    cache.invalidate('a:99');
    cache.fill('s1', admin(1), 60_000, before, 0);
    expect(cache.get('s1', 1)).toBeUndefined();
    cache.fill('s1', admin(1), 60_000, cache.epoch, 0);
    expect(cache.get('s1', 1)).toBeDefined();
  });

  it('serves nothing and stores nothing while not listening, and starts empty when listening again', () => {
    const cache = new SessionCache({ maxAgeMs: 5000 });
    cache.fill('s1', admin(1), 60_000, cache.epoch, 0);
    expect(cache.size).toBe(0);
    cache.listening();
    cache.fill('s1', admin(1), 60_000, cache.epoch, 0);
    expect(cache.get('s1', 1)).toBeDefined();
    const epoch = cache.epoch;
    cache.deaf();
    expect(cache.trusted).toBe(false);
    expect(cache.size).toBe(0);
    cache.fill('s1', admin(1), 60_000, cache.epoch, 0);
    expect(cache.get('s1', 1)).toBeUndefined();
    cache.listening();
    // An answer read before the drop is not stored after it.
    cache.fill('s1', admin(1), 60_000, epoch, 0);
    expect(cache.get('s1', 1)).toBeUndefined();
  });

  it('keeps an entry for the max age or until its session expires, whichever is first', () => {
    const cache = new SessionCache({ maxAgeMs: 5000 });
    cache.listening();
    cache.fill('long', admin(1), 60_000, cache.epoch, 0);
    cache.fill('short', admin(2), 2000, cache.epoch, 0);
    cache.fill('expired', admin(3), -1, cache.epoch, 0);
    expect(cache.get('long', 4999)).toBeDefined();
    expect(cache.get('long', 5000)).toBeUndefined();
    expect(cache.get('short', 1999)).toBeDefined();
    expect(cache.get('short', 2000)).toBeUndefined();
    expect(cache.get('expired', 0)).toBeUndefined();
  });

  it('is off with a max age of 0', () => {
    const cache = new SessionCache({ maxAgeMs: 0 });
    cache.listening();
    expect(cache.trusted).toBe(false);
    cache.fill('s1', admin(1), 60_000, cache.epoch, 0);
    expect(cache.get('s1', 0)).toBeUndefined();
  });

  it('holds at most its capacity, dropping the oldest', () => {
    const cache = new SessionCache({ maxAgeMs: 5000, capacity: 2 });
    cache.listening();
    for (const sid of ['a', 'b', 'c']) cache.fill(sid, admin(1), 60_000, cache.epoch, 0);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('c', 1)).toBeDefined();
  });

  it('hands out a frozen admin: no request can change it for the next', () => {
    const cache = new SessionCache({ maxAgeMs: 5000 });
    cache.listening();
    cache.fill('s1', admin(1, 7), 60_000, cache.epoch, 0);
    const cached = cache.get('s1', 1)!;
    expect(() => {
      (cached.permissions as Record<string, number>)['x.z'] = 1;
    }).toThrow(TypeError);
    expect(() => {
      (cached.role as { permissions: Record<string, number> }).permissions['x.z'] = 1;
    }).toThrow(TypeError);
  });
});

describe('sessionCacheSeconds', () => {
  const base = { secret: 'a-secret-a-secret-a-secret-0123456789', database: { embedded: {} } };
  it('defaults to 5 and takes 0 to 60', () => {
    expect(resolveConfig(base).sessionCacheSeconds).toBe(5);
    expect(resolveConfig({ ...base, sessionCacheSeconds: 0 }).sessionCacheSeconds).toBe(0);
    expect(resolveConfig({ ...base, sessionCacheSeconds: 60 }).sessionCacheSeconds).toBe(60);
  });
  it('refuses anything else, naming the key', () => {
    for (const value of [-1, 61, 1.5, '5']) {
      expectConfigError(() => resolveConfig({ ...base, sessionCacheSeconds: value as number }), 'config_value_invalid', {
        key: 'sessionCacheSeconds',
      });
    }
  });
});
