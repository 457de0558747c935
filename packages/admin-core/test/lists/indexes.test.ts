import { describe, expect, it } from 'vitest';
import { dropListIndexes, searchIndexes, sortIndexes } from '../../src/index.ts';
import { searchIndexName, sortIndexName } from '../../src/database/indexes.ts';

/** The migration helper of lists at scale (docs/performance.md, "Lists at scale"): the SQL it writes. */
describe('list index helpers', () => {
  it('writes one trigram index per searchable column, behind a guarded create extension', () => {
    const sql = searchIndexes('journal_posts', ['title', 'slug']);
    expect(sql).toMatch(/create extension if not exists pg_trgm;\s+exception when others then/);
    expect(sql).toContain(`create index if not exists "journal_posts_title_trgm" on "journal_posts" using gin ("title" gin_trgm_ops)`);
    expect(sql).toContain(`create index if not exists "journal_posts_slug_trgm" on "journal_posts" using gin ("slug" gin_trgm_ops)`);
    // The indexes are created only when the extension is there.
    expect(sql.indexOf(`if exists (select 1 from pg_extension where extname = 'pg_trgm')`)).toBeLessThan(sql.indexOf('create index'));
  });

  it('writes (column, id) btrees and their down', () => {
    expect(sortIndexes('t', ['a', 'b'])).toBe(
      'create index if not exists "t_a_id" on "t" ("a", "id");\ncreate index if not exists "t_b_id" on "t" ("b", "id")',
    );
    expect(dropListIndexes('t', { search: ['a'], sort: ['a', 'b'] })).toBe('drop index if exists "t_a_trgm", "t_a_id", "t_b_id"');
  });

  it('quotes names, and keeps long ones within 63 bytes, distinct', () => {
    expect(searchIndexes('we"ird', ["it's"])).toContain(
      `execute 'create index if not exists "we""ird_it''s_trgm" on "we""ird" using gin ("it''s" gin_trgm_ops)'`,
    );
    const long = 'x'.repeat(60);
    const a = sortIndexName(long, 'first_column');
    const b = sortIndexName(long, 'second_column');
    expect(Buffer.byteLength(a)).toBeLessThanOrEqual(63);
    expect(a).not.toBe(b);
    expect(a.endsWith('_id')).toBe(true);
    expect(searchIndexName(long, 'first_column').endsWith('_trgm')).toBe(true);
    expect(() => sortIndexes('t', [''])).toThrow(/not a table or column name/);
  });
});
