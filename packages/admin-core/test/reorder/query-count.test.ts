import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Test } from 'supertest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { SECTIONS, ENTRIES, treePlugin } from '../fixtures/tree.ts';
import { insertSections, insertEntries, nodesOf, reorderPath, type Node } from './support.ts';

/**
 * Issue 12, "Reorder" and "Scale": a save is set-based (one `UPDATE … FROM (VALUES …)`), so
 * reordering 5 or 500 nodes runs the same statements; so does reading them (docs/reorder.md).
 */
describe('SQL statements per reorder request', () => {
  let t: TestAdmin;
  let su: Client;

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [treePlugin] });
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  async function statements(run: () => Test) {
    t.queries.length = 0;
    const res = await run();
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    return { count: t.queries.length, sql: [...t.queries], body: res.body };
  }
  const updates = (sql: string[]) => sql.filter((statement) => /^\s*update\b/i.test(statement));

  /** GET, then POST of the reversed order (a tree: every second node under the one before it). */
  async function measure(ctl: string, tree: boolean) {
    const read = await statements(() => su.get(reorderPath(ctl)));
    const ids = nodesOf({ status: 200, body: read.body }).map((node) => node.id);
    const reversed = [...ids].reverse();
    const nodes: Node[] = reversed.map((id, index) => ({ id, parent_id: tree && index % 2 === 1 ? reversed[index - 1]! : null }));
    const save = await statements(() => su.post(reorderPath(ctl), { nodes }));
    expect(nodesOf({ status: 200, body: save.body })).toEqual(nodes);
    return { read, save, total: ids.length };
  }

  it('entries (flat): the same statements for 5 and for 500 nodes', async () => {
    await insertEntries(t, 5, 'Counted');
    const five = await measure(ENTRIES, false);
    await insertEntries(t, 495, 'More');
    const many = await measure(ENTRIES, false);
    expect([five.total, many.total]).toEqual([5, 500]);
    expect(many.read.count, many.read.sql.join('\n')).toBe(five.read.count);
    expect(many.save.count, many.save.sql.join('\n')).toBe(five.save.count);
    // One UPDATE writes every position (the audit row is an insert).
    expect(updates(many.save.sql)).toHaveLength(1);
    expect(updates(many.save.sql)[0]).toMatch(/from \(values /i);
    // The locked read, the update, the audit row and the read back (the hook sees neither the
    // guard's prepared token lookup nor BEGIN and COMMIT): a small constant.
    expect(five.save.count, five.save.sql.join('\n')).toBeLessThanOrEqual(6);
    expect(five.read.count, five.read.sql.join('\n')).toBeLessThanOrEqual(2);
  });

  it('the limit, 10,000 nodes of a tree, is saved in one request with the same statements', async () => {
    await t.sql('delete from test_tree_sections');
    await insertSections(t, 5, 'Small');
    const five = await measure(SECTIONS, true);
    await t.sql('delete from test_tree_sections');
    await insertSections(t, 10_000, 'Limit');
    const limit = await measure(SECTIONS, true);
    expect(limit.total).toBe(10_000);
    expect(limit.save.count, limit.save.sql.map((sql) => sql.slice(0, 200)).join('\n')).toBe(five.save.count);
    await t.sql('delete from test_tree_sections');
  });

  it('sections (a tree): the same statements for 5 and for 500 nodes', async () => {
    await insertSections(t, 5, 'Counted');
    const five = await measure(SECTIONS, true);
    await insertSections(t, 495, 'More');
    const many = await measure(SECTIONS, true);
    expect([five.total, many.total]).toEqual([5, 500]);
    expect(many.read.count, many.read.sql.join('\n')).toBe(five.read.count);
    expect(many.save.count, many.save.sql.join('\n')).toBe(five.save.count);
    expect(updates(many.save.sql)).toHaveLength(1);
    expect(updates(many.save.sql)[0]).toMatch(/"parent_id" = v\.parent/);
    expect(five.save.count, five.save.sql.join('\n')).toBeLessThanOrEqual(6);
  });
});
