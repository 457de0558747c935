import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { API, type TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { CREWS, insertCrew, newKey, startRelationsAdmin } from './support.ts';

/*
 * A write whose transaction meets a transient database failure (docs/errors.md, "Transient
 * conflicts") runs again from the start, a bounded number of times, then answers 409
 * `transient_conflict`. The failures are real database errors: a trigger raises SQLSTATE 40P01
 * (what PostgreSQL answers the victim of a deadlock) for the first `n` attempts, counted by a
 * sequence (a sequence is not rolled back with the attempt). The forced real deadlock between
 * two writers is in examples/blog/test/journal/category-deadlock.test.ts (server database).
 */
describe('transient database failures of writes', () => {
  let t: TestAdmin;
  let su: Client;
  let png: Buffer;

  beforeAll(async () => {
    t = await startRelationsAdmin();
    su = await signIn(t, { isSuperuser: true });
    png = await sharp({ create: { width: 12, height: 12, channels: 3, background: '#07a' } })
      .png()
      .toBuffer();
    await t.sql(`create table test_transient_budget (n int not null)`);
    await t.sql(`create sequence test_transient_attempts`);
    await t.sql(`create function test_transient_fail() returns trigger language plpgsql as $$
      begin
        if nextval('test_transient_attempts') <= (select n from test_transient_budget) then
          raise exception 'deadlock detected (forced by the test)' using errcode = '40P01';
        end if;
        return new;
      end $$`);
    await t.sql(`create trigger test_transient_crews before insert on test_rel_crews for each row execute function test_transient_fail()`);
    await t.sql(`create trigger test_transient_files before insert on cms_files for each row execute function test_transient_fail()`);
    await t.sql(`insert into test_transient_budget values (0)`);
  });
  afterAll(() => t.close());

  /** The next `n` inserts fail with 40P01; answers a reader of the attempts made since. */
  const failNext = async (n: number) => {
    await t.sql(`update test_transient_budget set n = ?`, [n]);
    await t.sql(`select setval('test_transient_attempts', 1, false)`);
    return async () => Number((await t.sql<{ v: number }>(`select last_value as v from test_transient_attempts`))[0]!.v);
  };
  beforeEach(async () => {
    await t.sql(`update test_transient_budget set n = 0`);
  });

  const crews = (name: string) => t.sql('select id from test_rel_crews where name = ?', [name]);
  const audit = (name: string) =>
    t.sql(`select a.id from cms_audit a join test_rel_crews c on c.id = a.record_id where a.target = ? and c.name = ?`, [CREWS, name]);

  it('a save that meets two deadlocks is run again and commits once, with one audit row', async () => {
    const attempts = await failNext(2);
    const res = await su.post(CREWS, { name: 'Retried crew' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await attempts()).toBe(3);
    expect(await crews('Retried crew')).toHaveLength(1);
    expect(await audit('Retried crew')).toHaveLength(1);
  });

  it('a save that keeps meeting deadlocks answers 409 transient_conflict after the bounded retries, nothing written', async () => {
    const attempts = await failNext(1000);
    const res = await su.post(CREWS, { name: 'Never saved crew' });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error.code).toBe('transient_conflict');
    expect(res.body.error.details).toEqual({});
    // The first attempt and three retries.
    expect(await attempts()).toBe(4);
    expect(await crews('Never saved crew')).toEqual([]);
  });

  /** Every stored blob (its key), thumbnails included. */
  const blobs = async () =>
    (await readdir(t.storageRoot, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(t.storageRoot.length + 1))
      .sort();
  const upload = (crew: number, key: string) =>
    t.http
      .post(`${API}/${CREWS}/${crew}/relations/members/records/0/files/photo`)
      .set('Authorization', `Bearer ${su.token}`)
      .set('X-Child-Session-Key', key)
      .attach('file_data', png, 'photo.png');

  it('an upload retried after a deadlock keeps one row and one blob: the blob is written once, before the transaction', async () => {
    const crew = await insertCrew(t, su.id);
    const before = await blobs();
    const attempts = await failNext(1);
    const res = await upload(crew, newKey());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await attempts()).toBe(2);
    const rows = await t.sql<{ disk_name: string; thumbs: string[] }>('select disk_name, thumbs from cms_files where id = ?', [
      res.body.data.id,
    ]);
    expect(rows).toHaveLength(1);
    // Exactly the blobs of that one row: none written twice, none left by the failed attempt.
    const added = (await blobs()).filter((key) => !before.includes(key));
    expect(added).toEqual([rows[0]!.disk_name, ...rows[0]!.thumbs].sort());
  });

  it('an upload that keeps meeting deadlocks is 409 and leaves neither row nor blob', async () => {
    const crew = await insertCrew(t, su.id);
    const before = await blobs();
    const rows = await t.sql('select id from cms_files');
    await failNext(1000);
    const res = await upload(crew, newKey());
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error.code).toBe('transient_conflict');
    expect(await t.sql('select id from cms_files')).toEqual(rows);
    expect(await blobs()).toEqual(before);
  });
});
