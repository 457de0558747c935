import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type supertest from 'supertest';
import type { KoaAdmin } from '@cms/admin-koa';
import { API, startSecondInstance, type TestAdmin } from '../../../../test/support/app.ts';
import { bearer } from '../../../../test/support/auth.ts';
import { waitingForLocks, retryLog } from '../../../../test/support/locks.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { CATEGORIES, seedCategories, startBlogAdmin } from '../support/blog.ts';

/*
 * Finding 6 of the third review (docs/errors.md, "Transient conflicts"): two saves of categories,
 * each naming the other as its parent, at once. Each locks its own row, then the other's (the
 * tree check locks the new parent's ancestors), so PostgreSQL fails one of them with a deadlock
 * (40P01). That one is run again from the start: it then sees the other's committed parent and
 * is refused as a cycle (422 on `parent`). Never a 500. The interleaving is forced: a test
 * connection holds the second category's row while B queues for it first and A, holding the first
 * category, queues behind B; then the hold is released. Both saves on one instance (nothing in the
 * process makes one request wait for another's row lock) and on two. Server only: the embedded
 * database runs one statement at a time.
 */
describe('two saves naming each other as parent', () => {
  let t: TestAdmin;
  let su: Client;
  let other: Client;
  let instanceB: KoaAdmin | undefined;
  let onB: ReturnType<typeof supertest>;
  const { retries, logger } = retryLog();

  beforeAll(async () => {
    t = await startBlogAdmin({ logger });
    su = await signIn(t, { isSuperuser: true });
    other = await signIn(t, { isSuperuser: true });
    if (t.db.kind === 'server') ({ admin: instanceB, http: onB } = await startSecondInstance(t, { logger }));
  });
  afterAll(async () => {
    await instanceB?.close();
    await t.close();
  });

  const waiting = (count: number, client: pg.Client) => waitingForLocks(client, count);

  it.for(['one instance', 'two instances'] as const)(
    '%s: the deadlock is retried: one save commits, the other is refused as a cycle, no 500',
    async (instances, context) => {
      if (t.db.kind !== 'server') context.skip('needs the PostgreSQL server (DATABASE_URL): a deadlock needs two connections at once');
      retries.length = 0;
      const [first, second] = await seedCategories(t, ['Deadlock one', 'Deadlock two']);
      const gate = new pg.Client({ connectionString: t.db.url });
      await gate.connect();
      try {
        await gate.query('begin');
        await gate.query('select id from journal_categories where id = $1 for update', [second]);
        // B: `second` under `first`; it waits for `second`, first in line.
        const b = (
          instances === 'one instance'
            ? other.put(`${CATEGORIES}/${second}`, { parent: first })
            : onB.put(`${API}/${CATEGORIES}/${second}`).set(bearer(other.token)).send({ parent: first })
        ).then((res) => res);
        await waiting(1, gate);
        // A: `first` under `second`; it locks `first`, then waits for `second` behind B.
        const a = su.put(`${CATEGORIES}/${first}`, { parent: second }).then((res) => res);
        await waiting(2, gate);
        await gate.query('commit');
        // B gets `second` and waits for `first` (A's), A waits for `second` (B's): a deadlock.
        const answers = await Promise.all([a, b]);
        expect(answers.map((res) => res.status).sort(), JSON.stringify(answers.map((res) => res.body))).toEqual([200, 422]);
        const refused = answers.find((res) => res.status === 422)!;
        expect(Object.keys(refused.body.error.details)).toEqual(['parent']);
        // The loser of the deadlock was run again (and logged so), once.
        expect(retries).toHaveLength(1);
        // The winner's parent stands; no cycle was stored.
        const rows = await t.sql<{ id: number; parent_id: number | null }>(
          'select id, parent_id from journal_categories where id in (?, ?) order by id',
          [first, second],
        );
        const parents = rows.map((row) => (row.parent_id === null ? null : Number(row.parent_id)));
        const winner = answers.findIndex((res) => res.status === 200);
        expect(parents).toEqual(winner === 0 ? [second, null] : [null, first]);
      } finally {
        await gate.end();
      }
    },
  );
});
