import { expect } from 'vitest';
import type { Test } from 'supertest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { CREWS, PROJECTS, RELATION_TABLES, relationsPlugin } from '../fixtures/relations.ts';

/** Helpers of the relation tests over the `test/relations` fixture (src/testing/relations.ts). */

export { CREWS, PROJECTS };

/** Every table a relation route may write: "nothing written" is equality of their snapshots. */
export const TABLES = [...RELATION_TABLES, 'cms_bindings'];

export const startRelationsAdmin = () => startTestAdmin({ plugins: [relationsPlugin] });

let counter = 0;
/** A session key no other test uses. */
export const newKey = () => `k${++counter}.${Date.now().toString(36)}_x-y`;

const one = async (t: TestAdmin, sql: string, params: unknown[]) => Number((await t.sql<{ id: number }>(sql, params))[0]!.id);

export const insertCrew = (t: TestAdmin, ownerId: number, name = 'crew') =>
  one(t, 'insert into test_rel_crews (name, owner_id) values (?, ?) returning id', [name, ownerId]);

export const insertMember = (t: TestAdmin, crewId: number | null, name = 'member', isSecret = false) =>
  one(t, 'insert into test_rel_members (name, crew_id, is_secret) values (?, ?, ?) returning id', [name, crewId, isSecret]);

export const insertBadge = (t: TestAdmin, name = 'badge') => one(t, 'insert into test_rel_badges (name) values (?) returning id', [name]);

export const insertProject = (t: TestAdmin, name = 'project') =>
  one(t, 'insert into test_rel_projects (name) values (?) returning id', [name]);

export const insertStep = (t: TestAdmin, projectId: number, name = 'step') =>
  one(t, 'insert into test_rel_steps (name, project_id) values (?, ?) returning id', [name, projectId]);

export const pivot = (t: TestAdmin, crewId: number, badgeId: number, weight = 1) =>
  t.sql('insert into test_rel_crew_badges (crew_id, badge_id, weight) values (?, ?, ?)', [crewId, badgeId, weight]);

/** The crew a member points at (undefined when the row is gone). */
export async function crewOf(t: TestAdmin, memberId: number): Promise<number | null | undefined> {
  const rows = await t.sql<{ crew_id: number | null }>('select crew_id from test_rel_members where id = ?', [memberId]);
  return rows.length === 0 ? undefined : rows[0]!.crew_id === null ? null : Number(rows[0]!.crew_id);
}

/** A crew's pivot rows as `badge id → weight`. */
export async function pivotsOf(t: TestAdmin, crewId: number): Promise<Record<number, number>> {
  const rows = await t.sql<{ badge_id: number; weight: number }>(
    'select badge_id, weight from test_rel_crew_badges where crew_id = ? order by badge_id',
    [crewId],
  );
  return Object.fromEntries(rows.map((row) => [Number(row.badge_id), Number(row.weight)]));
}

/** Ids of a list envelope, in its order. */
export function idsOf(res: { status: number; body: { data?: Array<{ id: number }> } }): number[] {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!.map((row) => Number(row.id));
}

/** With `key`, the request carries it as `X-Session-Key`. */
export const withKey = (request: Test, key?: string) => (key === undefined ? request : request.set('X-Session-Key', key));

export const ok = (res: { status: number; body: unknown }, status = 200) => expect(res.status, JSON.stringify(res.body)).toBe(status);

/** The audit rows of relation changes, oldest first. */
export const relationAudit = (t: TestAdmin) =>
  t.sql<{ admin_id: number; target: string; record_id: number; detail: string }>(
    `select admin_id, target, record_id, detail from cms_audit where action = 'relation' order by id`,
  );
