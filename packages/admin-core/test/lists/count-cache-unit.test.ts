import { describe, expect, it } from 'vitest';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CountCache } from '../../src/behaviors/list/count-cache.ts';
import { collectsMatches } from '../../src/behaviors/list/sql.ts';
import type { NotificationHandlers } from '../../src/database/notifications.ts';
import { resolveConfig } from '../../src/config/resolve.ts';
import { expectConfigError } from '../support/config-error.ts';

/**
 * The list count cache alone (docs/performance.md, "Counts"), on a listener whose notifications
 * the test delivers: a notification of a commit is delivered at the latest by the next fence, as
 * PostgreSQL delivers it before the answer to the listening connection's next statement.
 */
async function started(options: { maxAgeMs?: number; watched?: string[] } = {}) {
  const pending: string[] = [];
  let handlers: NotificationHandlers | undefined;
  let fences = 0;
  const cache = new CountCache({ maxAgeMs: options.maxAgeMs ?? 60_000, capacity: 3 });
  const db = {
    listen: async (_channel: string, given: NotificationHandlers) => {
      handlers = given;
      given.up();
      return {
        listening: true,
        fence: async () => {
          fences += 1;
          for (const payload of pending.splice(0)) given.notify(payload);
          return true;
        },
        close: async () => {},
      };
    },
  };
  const em = { execute: async () => (options.watched ?? ['posts']).map((table) => ({ table })) } as unknown as EntityManager;
  await cache.start(db, em, ['posts', 'tags', 'plain']);
  return {
    cache,
    /** A commit's notification, on its way (delivered by the next fence). */
    committed: (table: string) => pending.push(table),
    handlers: () => handlers!,
    fences: () => fences,
  };
}

const where = (sql: string, params: unknown[] = []) => ({ sql, params });

describe('CountCache', () => {
  it('keys only the watched tables, once listening; the key holds the WHERE and its parameters', async () => {
    const { cache } = await started({ watched: ['posts', 'tags'] });
    expect(cache.trusted).toBe(true);
    expect(cache.keyOf('plain', where('where x'))).toBeUndefined();
    const a = cache.keyOf('posts', where('where t ilike ?', ['%a%']))!;
    const b = cache.keyOf('posts', where('where t ilike ?', ['%b%']))!;
    expect(a.table).toBe('posts');
    expect(a.key).not.toBe(b.key);
    cache.fill(a, 5, cache.epoch);
    expect((await cache.get(a))?.total).toBe(5);
    expect(await cache.get(b)).toBeUndefined();
  });

  it("keeps the table's size beside a total when the count read it (a searched list's plan)", async () => {
    const { cache } = await started({ watched: ['posts'] });
    const a = cache.keyOf('posts', where('where t ilike ?', ['%a%']))!;
    const b = cache.keyOf('posts', where('where t ilike ?', ['%b%']))!;
    cache.fill(a, 5, cache.epoch, 1000);
    cache.fill(b, 6, cache.epoch);
    expect(await cache.get(a)).toEqual({ total: 5, tableRows: 1000 });
    expect(await cache.get(b)).toEqual({ total: 6 });
  });

  it('serves a hit only after the fence: a commit notified before the request evicts it', async () => {
    const { cache, committed, fences } = await started();
    const key = cache.keyOf('posts', where('where a'))!;
    cache.fill(key, 7, cache.epoch);
    committed('posts');
    expect(await cache.get(key)).toBeUndefined();
    expect(fences()).toBe(1);
    // A miss costs no fence.
    await cache.get(key);
    expect(fences()).toBe(1);
  });

  it("a table's notification evicts that table's totals only", async () => {
    const { cache, handlers } = await started({ watched: ['posts', 'tags'] });
    const posts = cache.keyOf('posts', where('where a'))!;
    const tags = cache.keyOf('tags', where('where a'))!;
    cache.fill(posts, 1, cache.epoch);
    cache.fill(tags, 2, cache.epoch);
    handlers().notify('tags');
    expect((await cache.get(posts))?.total).toBe(1);
    expect(await cache.get(tags)).toBeUndefined();
  });

  it('stores nothing counted before an invalidation (the epoch read before the count)', async () => {
    const { cache, handlers } = await started();
    const key = cache.keyOf('posts', where('where a'))!;
    const epoch = cache.epoch;
    handlers().notify('posts');
    cache.fill(key, 3, epoch);
    expect(await cache.get(key)).toBeUndefined();
  });

  it('forgets everything and keys nothing while deaf; starts empty when listening again', async () => {
    const { cache, handlers } = await started();
    const key = cache.keyOf('posts', where('where a'))!;
    cache.fill(key, 4, cache.epoch);
    handlers().down(new Error('gone'));
    expect(cache.trusted).toBe(false);
    expect(cache.size).toBe(0);
    expect(cache.keyOf('posts', where('where a'))).toBeUndefined();
    cache.fill(key, 4, cache.epoch);
    expect(cache.size).toBe(0);
    handlers().up();
    expect(await cache.get(key)).toBeUndefined();
    cache.fill(key, 4, cache.epoch);
    expect((await cache.get(key))?.total).toBe(4);
  });

  it('keeps at most its capacity (the oldest goes) and no entry past its max age', async () => {
    const { cache } = await started();
    const keys = ['a', 'b', 'c', 'd'].map((name) => cache.keyOf('posts', where(`where ${name}`))!);
    for (const [index, key] of keys.entries()) cache.fill(key, index, cache.epoch);
    expect(cache.size).toBe(3);
    expect(await cache.get(keys[0]!)).toBeUndefined();
    expect((await cache.get(keys[3]!))?.total).toBe(3);

    const brief = (await started({ maxAgeMs: 20 })).cache;
    const key = brief.keyOf('posts', where('where a'))!;
    brief.fill(key, 1, brief.epoch);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await brief.get(key)).toBeUndefined();
  });

  it('does not listen when off, or when no table notifies', async () => {
    let listened = 0;
    const db = {
      listen: async () => {
        listened += 1;
        throw new Error('not expected');
      },
    };
    const em = { execute: async () => [] } as unknown as EntityManager;
    const off = new CountCache({ maxAgeMs: 0 });
    await off.start(db, em, ['posts']);
    const none = new CountCache({ maxAgeMs: 1000 });
    await none.start(db, em, ['posts']);
    expect(listened).toBe(0);
    expect(off.trusted || none.trusted).toBe(false);
  });
});

describe('countCacheSeconds', () => {
  const base = { secret: 'a-secret-a-secret-a-secret-0123456789', database: { embedded: {} } };
  it('defaults to 60 and takes 0 to 3600', () => {
    expect(resolveConfig(base).countCacheSeconds).toBe(60);
    expect(resolveConfig({ ...base, countCacheSeconds: 0 }).countCacheSeconds).toBe(0);
    expect(resolveConfig({ ...base, countCacheSeconds: 3600 }).countCacheSeconds).toBe(3600);
  });
  it('refuses anything else, naming the key', () => {
    for (const value of [-1, 3601, 1.5, '60']) {
      expectConfigError(() => resolveConfig({ ...base, countCacheSeconds: value as number }), 'config_value_invalid', {
        key: 'countCacheSeconds',
      });
    }
  });
});

/** A searched list with a known total: collect its matches, or walk the sort index (docs/performance.md, "Search"). */
describe('collectsMatches', () => {
  it('walks only when the total is large against the table, ten times over its estimate', () => {
    // Page 1 of 20: a walk from a total above √(10 × 20 × rows).
    expect(collectsMatches({ total: 500, tableRows: 100_000 }, 20)).toBe(true);
    expect(collectsMatches({ total: 4472, tableRows: 100_000 }, 20)).toBe(true);
    expect(collectsMatches({ total: 4473, tableRows: 100_000 }, 20)).toBe(false);
    expect(collectsMatches({ total: 10_000, tableRows: 100_000 }, 20)).toBe(false);
    expect(collectsMatches({ total: 5000, tableRows: 1_000_000 }, 20)).toBe(true);
    expect(collectsMatches({ total: 100_000, tableRows: 1_000_000 }, 20)).toBe(false);
    // A deep page: the walk would read further, the collect reads the same.
    expect(collectsMatches({ total: 10_000, tableRows: 100_000 }, 40_000)).toBe(true);
  });

  it('collects when the table was never analyzed (no size to compare with)', () => {
    expect(collectsMatches({ total: 1_000_000 }, 20)).toBe(true);
    expect(collectsMatches({ total: 1_000_000, tableRows: 0 }, 20)).toBe(true);
  });
});
