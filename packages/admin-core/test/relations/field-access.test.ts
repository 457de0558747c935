import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { attachFile } from '../../src/index.ts';
import { GUARDED_TABLES, guardedPlugin, SEALS_PERMISSION, VAULTS, VAULTS_PERMISSION } from '../fixtures/guarded.ts';

const TABLES = [...GUARDED_TABLES, 'cms_files', 'cms_bindings', 'cms_audit'];

/**
 * Issue 22, "Seen in the code": the relation routes did not check the related controller's own
 * permissions, and the file and relation routes ignored a field's `readOnly` and `context`. Each
 * is now a 403 whose details name the field (docs/relations.md, "Permissions"; docs/files.md,
 * "Routes"), and nothing is written.
 */
describe('field rules on the file and relation routes', () => {
  let t: TestAdmin;
  let su: Client;
  /** Vaults only. */
  let keeper: Client;
  /** Vaults and seals. */
  let warden: Client;
  let vault: number;
  let seal: number;
  let guard: number;
  let scan: number;

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [guardedPlugin] });
    su = await signIn(t, { isSuperuser: true });
    keeper = await signIn(t, { permissions: { [VAULTS_PERMISSION]: 1 } });
    warden = await signIn(t, { permissions: { [VAULTS_PERMISSION]: 1, [SEALS_PERMISSION]: 1 } });
    const one = async (sql: string, params: unknown[] = []) => Number((await t.sql<{ id: number }>(sql, params))[0]!.id);
    vault = await one(`insert into test_guard_vaults (name) values ('vault') returning id`);
    seal = await one(`insert into test_guard_seals (name) values ('seal') returning id`);
    guard = await one(`insert into test_guard_guards (name, vault_id) values ('guard', ?) returning id`, [vault]);
    scan = await attachFile(t.core, {
      controller: VAULTS,
      field: 'scans',
      recordId: vault,
      data: Buffer.from('scan'),
      fileName: 'scan.txt',
    });
  });
  afterAll(() => t.close());

  /** A 403 whose details name exactly `field`, with `message` (in English), and nothing written. */
  const expect403 = async (request: PromiseLike<{ status: number; body: any }>, field: string, message: string | RegExp) => {
    const before = await snapshot(t, TABLES);
    const res = await request;
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect(Object.keys(res.body.error.details)).toEqual([field]);
    expect(res.body.error.details[field][0]).toMatch(message);
    expect(await snapshot(t, TABLES)).toEqual(before);
  };
  const upload = (client: Client, id: number, field: string, key?: string) => {
    const request = t.http.post(`${API}/${VAULTS}/${id}/files/${field}`).set('Authorization', `Bearer ${client.token}`);
    return (key ? request.set('X-Session-Key', key) : request).attach('file_data', Buffer.from('new bytes'), 'new.txt');
  };

  describe('the related controller', () => {
    const sealRoutes = (client: Client) => [
      client.get(`${VAULTS}/schema/relation/seals`),
      client.get(`${VAULTS}/${vault}/relations/seals`),
      client.get(`${VAULTS}/${vault}/relations/seals/candidates`),
      client.post(`${VAULTS}/${vault}/relations/seals/link`, { ids: [seal] }),
      client.post(`${VAULTS}/${vault}/relations/seals/unlink`, { ids: [seal] }),
    ];

    it('named by the relation: without its permission every route is 403 on the field', async () => {
      for (const request of sealRoutes(keeper)) await expect403(request, 'seals', 'You may not manage the records of this field.');
      const de = await keeper.locale('de').get(`${VAULTS}/${vault}/relations/seals`);
      expect(de.status).toBe(403);
      expect(de.body.error.details.seals).toEqual(['Sie dürfen die Datensätze dieses Feldes nicht verwalten.']);
    });

    it('with it, the routes answer as before', async () => {
      for (const request of sealRoutes(warden)) expect((await request).status).toBe(200);
      expect((await su.get(`${VAULTS}/${vault}/relations/seals`)).status).toBe(200);
    });

    it('not named: a controller over the related entity gates it all the same', async () => {
      await expect403(keeper.get(`${VAULTS}/${vault}/relations/guards`), 'guards', 'You may not manage the records of this field.');
      await expect403(keeper.get(`${VAULTS}/${vault}/relations/guards/records/${guard}`), 'guards', /may not manage/);
      expect((await warden.get(`${VAULTS}/${vault}/relations/guards`)).status).toBe(200);
      // A relation whose entity has no controller of its own needs the parent's permission only.
      expect((await keeper.get(`${VAULTS}/${vault}/relations/keys`)).status).toBe(200);
    });
  });

  describe('a read-only relation-manager field', () => {
    it('reads its children, writes none: link, unlink, delete, create, update are 403 on the field', async () => {
      expect((await warden.get(`${VAULTS}/${vault}/relations/guards`)).body.data.map((row: { id: number }) => row.id)).toEqual([guard]);
      expect((await warden.get(`${VAULTS}/${vault}/relations/guards/records/${guard}`)).status).toBe(200);
      const readOnly = 'This field is read-only.';
      for (const request of [
        warden.post(`${VAULTS}/${vault}/relations/guards/link`, { ids: [guard] }),
        warden.post(`${VAULTS}/${vault}/relations/guards/unlink`, { ids: [guard] }),
        warden.post(`${VAULTS}/${vault}/relations/guards/delete`, { ids: [guard] }),
        warden.post(`${VAULTS}/${vault}/relations/guards/records`, { name: 'new guard' }),
        warden.put(`${VAULTS}/${vault}/relations/guards/records/${guard}`, { name: 'renamed' }),
      ])
        await expect403(request, 'guards', readOnly);
      // An upload into a child's form is a write of the relation as well.
      await expect403(
        t.http
          .post(`${API}/${VAULTS}/${vault}/relations/guards/records/${guard}/files/badge`)
          .set('Authorization', `Bearer ${warden.token}`)
          .set('X-Child-Session-Key', 'child.key_1')
          .attach('file_data', Buffer.from('badge'), 'badge.txt'),
        'guards',
        readOnly,
      );
    });
  });

  describe('a relation-manager field of the update form only', () => {
    it('is 403 on every route of the create form (record 0), and works once the record exists', async () => {
      const key = 'vault.key_create1';
      const zero = (path: string) => `${VAULTS}/0/relations/keys${path}`;
      const message = 'This field is only available once the record is saved.';
      await expect403(keeper.get(zero('')).set('X-Session-Key', key), 'keys', message);
      await expect403(keeper.get(zero('/candidates')).set('X-Session-Key', key), 'keys', message);
      await expect403(keeper.post(zero('/records'), { name: 'early key' }).set('X-Session-Key', key), 'keys', message);
      const created = await keeper.post(`${VAULTS}/${vault}/relations/keys/records`, { name: 'a key' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect((await keeper.get(`${VAULTS}/${vault}/relations/keys`)).body.data).toHaveLength(1);
    });
  });

  describe('a read-only fileupload field', () => {
    it('lists its files; upload, caption, reorder and remove are 403 on the field', async () => {
      const listed = await keeper.get(`${VAULTS}/${vault}/files/scans`);
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      expect(listed.body.data.map((file: { id: number }) => file.id)).toEqual([scan]);
      const readOnly = 'This field is read-only.';
      await expect403(upload(keeper, vault, 'scans'), 'scans', readOnly);
      await expect403(keeper.put(`${VAULTS}/${vault}/files/scans/${scan}`, { title: 'x' }), 'scans', readOnly);
      await expect403(keeper.post(`${VAULTS}/${vault}/files/scans/reorder`, { ids: [scan] }), 'scans', readOnly);
      await expect403(keeper.delete(`${VAULTS}/${vault}/files/scans/${scan}`), 'scans', readOnly);
      // Under a session key too: nothing is held for the save.
      await expect403(keeper.delete(`${VAULTS}/${vault}/files/scans/${scan}`).set('X-Session-Key', 'vault.key_2'), 'scans', readOnly);
      const de = await keeper.locale('de').delete(`${VAULTS}/${vault}/files/scans/${scan}`);
      expect(de.body.error.details.scans).toEqual(['Dieses Feld kann nicht geändert werden.']);
    });
  });

  describe('a fileupload field of the create form only', () => {
    it('is 403 on every route of a saved record, and takes uploads before the first save', async () => {
      const message = 'This field is only available while the record is created.';
      await expect403(keeper.get(`${VAULTS}/${vault}/files/drafts`), 'drafts', message);
      await expect403(upload(keeper, vault, 'drafts'), 'drafts', message);
      const de = await keeper.locale('de').get(`${VAULTS}/${vault}/files/drafts`);
      expect(de.body.error.details.drafts).toEqual(['Dieses Feld ist nur beim Anlegen des Datensatzes verfügbar.']);
      const early = await upload(keeper, 0, 'drafts', 'vault.key_3');
      expect(early.status, JSON.stringify(early.body)).toBe(201);
      expect((await keeper.get(`${VAULTS}/0/files/drafts`).set('X-Session-Key', 'vault.key_3')).body.data).toHaveLength(1);
    });
  });
});
