import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Test } from 'supertest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { POSTS, PRODUCTS, pressPlugin } from '../fixtures/press.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';

/**
 * Issue 10, "Bad input": malformed relation bodies are 422 naming the key and write nothing; and
 * a property drives random deferred operations on a new post, then its create save, against a
 * model of the expected state. The seed is fixed so that runs are repeatable; set FC_SEED to
 * explore others.
 */
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20240610;
const TABLES = ['test_press_posts', 'test_press_comments', 'test_press_products', 'test_press_product_accessories', 'cms_bindings'];

describe('relation routes under bad input', () => {
  let t: TestAdmin;
  let su: Client;
  let post: number;
  let child: number;
  let orphan: number;
  let desk: number;
  let lamp: number;
  let chair: number;
  let counter = 0;

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [pressPlugin] });
    su = await signIn(t, { isSuperuser: true });
    post = (await su.post(POSTS, { title: 'Bad input', slug: 'bad-input' })).body.data.id;
    child = (await su.post(`${POSTS}/${post}/relations/comments/records`, { author_name: 'Ann', body: 'Hi' })).body.data.id;
    orphan = Number(
      (await t.sql<{ id: number }>(`insert into test_press_comments (author_name, body) values ('O', 'o') returning id`))[0]!.id,
    );
    const product = async (sku: string) => (await su.post(PRODUCTS, { name: sku, sku: `BAD-${sku}` })).body.data.id as number;
    desk = await product('DESK');
    lamp = await product('LAMP');
    chair = await product('CHAIR');
    expect((await su.post(`${PRODUCTS}/${desk}/relations/accessories/link`, { ids: [lamp] })).status).toBe(200);
  });
  afterAll(() => t.close());

  const comments = (id: number | string = post) => `${POSTS}/${id}/relations/comments`;
  const accessories = (id: number | string = desk) => `${PRODUCTS}/${id}/relations/accessories`;
  /** Sends a raw JSON text (a primitive body cannot go through `send(value)`). */
  const raw = (path: string, json: string) => su.post(path).set('Content-Type', 'application/json').send(json);

  /** Every malformed `{ids}` body, with the key its 422 names. */
  const idsCases: Array<[body: unknown, key: string]> = [
    [{}, 'ids'],
    [{ ids: null }, 'ids'],
    [{ ids: 'x' }, 'ids'],
    [{ ids: 5 }, 'ids'],
    [{ ids: { 0: 1 } }, 'ids'],
    [{ ids: [] }, 'ids'],
    [{ ids: [1.5] }, 'ids'],
    [{ ids: ['1'] }, 'ids'],
    [{ ids: [-1] }, 'ids'],
    [{ ids: [0] }, 'ids'],
    [{ ids: [null] }, 'ids'],
    [{ ids: [true] }, 'ids'],
    [{ ids: [[1]] }, 'ids'],
    [{ ids: [2 ** 53] }, 'ids'],
    [{ ids: [1e100] }, 'ids'],
    [{ ids: [3, 3] }, 'ids'],
    [{ ids: Array.from({ length: 1001 }, (_, i) => i + 1) }, 'ids'],
    [{ ids: [1], nope: 1 }, 'nope'],
    [{ ids: [1], IDS: [1] }, 'IDS'],
    [{ ids: [1], constructor: 1 }, 'constructor'],
  ];

  it('link, unlink and delete: malformed bodies are 422 naming the key; nothing is written', async () => {
    const before = await snapshot(t, TABLES);
    for (const op of ['link', 'unlink', 'delete']) {
      for (const base of [comments(), comments(0)]) {
        const path = `${base}/${op}`;
        const send = (request: Test) => (base === comments(0) ? request.set('X-Session-Key', 'bad-input') : request);
        for (const [body, key] of idsCases) expect422(await send(su.post(path, body)), [key]);
        for (const json of ['[1]', '"ids"', '5', 'null', 'true']) expect422(await send(raw(path, json)), ['body']);
        // Several problems at once: each named.
        expect422(await send(su.post(path, { ids: [], a: 1, b: 2 })), ['a', 'b', 'ids']);
      }
    }
    // `pivot` is a link's key only, and a hasMany has no pivot form.
    expect422(await su.post(`${comments()}/unlink`, { ids: [child], pivot: {} }), ['pivot']);
    expect422(await su.post(`${comments()}/delete`, { ids: [child], pivot: {} }), ['pivot']);
    expect422(await su.post(`${comments()}/link`, { ids: [orphan], pivot: { quantity: 2 } }), ['pivot']);
    expect(await snapshot(t, TABLES)).toEqual(before);
  });

  it('pivot values: one id only, pivot form keys only, valid values only', async () => {
    const before = await snapshot(t, TABLES);
    expect422(await su.post(`${accessories()}/link`, { ids: [chair, lamp], pivot: { quantity: 2 } }), ['pivot']);
    expect422(await su.post(`${accessories()}/link`, { ids: [chair], pivot: { colour: 'red' } }), ['pivot.colour']);
    expect422(await su.post(`${accessories()}/link`, { ids: [chair], pivot: { quantity: 2, colour: 'red' } }), ['pivot.colour']);
    expect422(await su.post(`${accessories()}/link`, { ids: [chair], pivot: { product_id: chair } }), ['pivot.product_id']);
    expect422(await su.post(`${accessories()}/link`, { ids: [chair], pivot: { quantity: 0 } }), ['pivot.quantity']);
    expect422(await su.post(`${accessories()}/link`, { ids: [chair], pivot: { quantity: 'many' } }), ['pivot.quantity']);
    for (const pivot of [[1], 'x', 3, null]) expect422(await su.post(`${accessories()}/link`, { ids: [chair], pivot }), ['pivot']);
    const deferred = (request: Test) => request.set('X-Session-Key', 'bad-pivot');
    expect422(await deferred(su.post(`${accessories(0)}/link`, { ids: [chair, lamp], pivot: { quantity: 2 } })), ['pivot']);
    expect422(await deferred(su.post(`${accessories(0)}/link`, { ids: [chair], pivot: { colour: 'red' } })), ['pivot.colour']);
    expect422(await su.put(`${accessories()}/pivot/${lamp}`, { colour: 'red' }), ['colour']);
    expect422(await su.put(`${accessories()}/pivot/${lamp}`, { quantity: 2.5 }), ['quantity']);
    expect422(await su.put(`${accessories()}/pivot/${lamp}`, [2]), ['body']);
    expect(await snapshot(t, TABLES)).toEqual(before);
  });

  it('child bodies and session keys', async () => {
    const before = await snapshot(t, TABLES);
    expect422(await su.post(`${comments()}/records`, [1]), ['body']);
    expect422(await su.post(`${comments()}/records`, { author_name: 'a', body: 'b', post_id: post }), ['post_id']);
    expect422(await su.post(`${comments()}/records`, { author_name: 'a', body: 'b', is_approved: 'maybe' }), ['is_approved']);
    expect422(await su.post(`${comments()}/records`, { author_name: 'x'.repeat(256), body: 'b' }), ['author_name']);
    expect422(await su.put(`${comments()}/records/${child}`, { id: 5 }), ['id']);
    expect422(await su.put(`${comments()}/records/${child}`, { author_name: '' }), ['author_name']);
    for (const key of ['has space', 'x'.repeat(129), 'a/b', 'semi;colon']) {
      expect422(await su.post(`${comments(0)}/link`, { ids: [orphan] }).set('X-Session-Key', key), ['X-Session-Key']);
      expect422(await su.post(`${comments()}/link`, { ids: [orphan] }).set('X-Session-Key', key), ['X-Session-Key']);
    }
    expect422(await su.post(`${comments(0)}/link`, { ids: [orphan] }), ['X-Session-Key']);
    expect(await snapshot(t, TABLES)).toEqual(before);
  });

  /**
   * The model of one new post's comments under one form session: a pool of orphans (each free,
   * linked or deleted in the form), the comments created in the form (alive until unlinked or
   * deleted, which removes them at once), and a comment of another post that is never eligible.
   */
  it('property: random deferred operations on a new post, then its save, leave exactly the modelled comments', async () => {
    const other = (await su.post(POSTS, { title: 'Other', slug: 'property-other' })).body.data.id as number;
    const foreign = (await su.post(`${comments(other)}/records`, { author_name: 'Foreign', body: 'not yours' })).body.data.id as number;
    /**
     * A target: one of the pool's orphans, one of the comments created in the form (if any), the
     * foreign comment, or the previous operation's target again (so that sequences on one comment
     * such as link, delete, link come up often).
     */
    type Pick = { from: 'pool' | 'created'; index: number } | { from: 'foreign' | 'again' };
    type Op = { kind: 'create' } | { kind: 'link' | 'unlink' | 'delete'; pick: Pick };
    const pick: fc.Arbitrary<Pick> = fc.oneof(
      { weight: 4, arbitrary: fc.record({ from: fc.constant('pool' as const), index: fc.nat(2) }) },
      { weight: 2, arbitrary: fc.record({ from: fc.constant('created' as const), index: fc.nat(3) }) },
      { weight: 1, arbitrary: fc.constant({ from: 'foreign' as const }) },
      { weight: 5, arbitrary: fc.constant({ from: 'again' as const }) },
    );
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 2, arbitrary: fc.constant({ kind: 'create' as const }) },
      ...(['link', 'unlink', 'delete'] as const).map((kind) => ({ weight: 3, arbitrary: fc.record({ kind: fc.constant(kind), pick }) })),
    );
    const sorted = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b);
    const all = async (path: string, key: string) => {
      const ids: number[] = [];
      for (let page = 1; ; page += 1) {
        const res = await su.get(path, { per_page: '20', page: String(page) }).set('X-Session-Key', key);
        expect(res.status).toBe(200);
        ids.push(...res.body.data.map((row: { id: number }) => row.id));
        if (page >= res.body.meta.last_page) return ids;
      }
    };

    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 2, maxLength: 12 }), async (ops) => {
        counter += 1;
        const key = `prop-${counter}-${Math.random().toString(36).slice(2, 8)}`;
        const rows = await t.sql<{ id: number }>(
          `insert into test_press_comments (author_name, body) select 'Pool ' || n, 'pool' from generate_series(1, 3) as n returning id`,
        );
        const pool = new Map<number, 'free' | 'linked' | 'deleted'>(rows.map((row) => [Number(row.id), 'free']));
        const created = new Map<number, 'alive' | 'gone'>();
        const watched = () => [...pool.keys(), ...created.keys(), foreign];
        const untouched = async () => {
          const mine = watched();
          return t.sql(`select * from test_press_comments where id not in (${mine.join(', ')}) order by id`);
        };
        const othersBefore = await untouched();
        const log: string[] = [];
        let last: number | undefined;

        for (const step of ops) {
          if (step.kind === 'create') {
            const res = await su.post(`${comments(0)}/records`, { author_name: 'Made', body: 'in the form' }).set('X-Session-Key', key);
            log.push(`create -> ${res.status} ${res.body.data?.id}`);
            expect(res.status, log.join('\n')).toBe(201);
            created.set(res.body.data.id, 'alive');
            last = res.body.data.id;
            continue;
          }
          const made = [...created.keys()];
          const { pick } = step;
          const target = (): number => {
            if (pick.from === 'again') return last ?? [...pool.keys()][0]!;
            if (pick.from === 'pool') return [...pool.keys()][pick.index]!;
            if (pick.from === 'created' && made.length > 0) return made[pick.index % made.length]!;
            return foreign;
          };
          const id = target();
          last = id;
          const member = pool.get(id) === 'linked' || created.get(id) === 'alive';
          const res = await su.post(`${comments(0)}/${step.kind}`, { ids: [id] }).set('X-Session-Key', key);
          log.push(`${step.kind} ${id} (${pool.get(id) ?? created.get(id) ?? 'foreign'}) -> ${res.status}`);
          if (step.kind === 'link') {
            // Free orphans and those deleted in this form (linking again undoes the deletion) are candidates.
            const eligible = pool.get(id) === 'free' || pool.get(id) === 'deleted';
            if (eligible) {
              expect(res.status, log.join('\n')).toBe(200);
              pool.set(id, 'linked');
            } else expect422(res, ['comments']);
          } else if (!member) {
            expect(res.status, log.join('\n')).toBe(404);
          } else {
            expect(res.status, log.join('\n')).toBe(200);
            if (created.has(id)) created.set(id, 'gone');
            else pool.set(id, step.kind === 'unlink' ? 'free' : 'deleted');
          }
        }

        // The pending state as the form sees it, and nothing written yet.
        const expectedMembers = sorted([
          ...[...pool].filter(([, state]) => state === 'linked').map(([id]) => id),
          ...[...created].filter(([, state]) => state === 'alive').map(([id]) => id),
        ]);
        expect(sorted(await all(comments(0), key)), log.join('\n')).toEqual(expectedMembers);
        const open = new Set(await all(`${comments(0)}/candidates`, key));
        const expectedOpen = [...pool].filter(([, state]) => state !== 'linked').map(([id]) => id);
        expect(sorted(watched().filter((id) => open.has(id))), log.join('\n')).toEqual(sorted(expectedOpen));
        const pending = await t.sql<{ id: number; post_id: number | null }>(
          `select id, post_id from test_press_comments where id in (${watched().join(', ')}) order by id`,
        );
        const existing = sorted([...pool.keys(), ...[...created].filter(([, state]) => state === 'alive').map(([id]) => id), foreign]);
        expect(
          pending.map((row) => row.id),
          log.join('\n'),
        ).toEqual(existing);
        expect(pending.filter((row) => row.post_id !== null).map((row) => row.id)).toEqual([foreign]);

        const saved = await su.post(POSTS, { title: `Property ${counter}`, slug: `property-${counter}` }).set('X-Session-Key', key);
        expect(saved.status, `${log.join('\n')}\n${JSON.stringify(saved.body)}`).toBe(201);
        const newPost = saved.body.data.id as number;
        const after = await t.sql<{ id: number; post_id: number | null }>(
          `select id, post_id from test_press_comments where id in (${watched().join(', ')}) order by id`,
        );
        const expected = [
          ...[...pool]
            .filter(([, state]) => state !== 'deleted')
            .map(([id, state]) => ({ id, post_id: state === 'linked' ? newPost : null })),
          ...[...created].filter(([, state]) => state === 'alive').map(([id]) => ({ id, post_id: newPost })),
          { id: foreign, post_id: other },
        ].sort((a, b) => a.id - b.id);
        expect(after, log.join('\n')).toEqual(expected);
        expect(await untouched(), log.join('\n')).toEqual(othersBefore);
        expect(await t.sql('select count(*)::int as n from cms_bindings where session_key = ?', [key])).toEqual([{ n: 0 }]);
      }),
      { numRuns: 30, seed: SEED },
    );
  });
});
