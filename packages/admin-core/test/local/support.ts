import { readdir } from 'node:fs/promises';
import sharp from 'sharp';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { isAdminError } from '../../src/index.ts';
import { pressPlugin } from '../fixtures/press.ts';
import { prefsPlugin } from '../fixtures/settings.ts';
import { treePlugin } from '../fixtures/tree.ts';

/** The admin with the fixtures the local API tests call: press (posts, products, storefront), tree (reorder), prefs (settings). */
export const startLocalAdmin = (): Promise<TestAdmin> => startTestAdmin({ plugins: [pressPlugin, treePlugin, prefsPlugin] });

/** The refusal a call throws, as its status, error code and detail keys; a call that succeeds fails the test. */
export async function refusal(work: Promise<unknown>): Promise<{ status: number; code: string; keys: string[] }> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isAdminError(error)) throw new Error(`expected an AdminError, got ${String(error)}`);
  return { status: error.status, code: error.code, keys: Object.keys(error.details).sort() };
}

/** The audit rows of a target, oldest first. */
export const auditOf = (t: TestAdmin, target: string) =>
  t.sql<{
    admin_id: number | null;
    actor: string;
    action: string;
    record_id: number | null;
    detail: string;
    ip: string;
    request_id: string;
  }>('select admin_id, actor, action, record_id, detail, ip, request_id from cms_audit where target = ? order by id', [target]);

/** Every blob in the store (files and thumbnails). */
export async function blobsIn(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

/** A small PNG. */
export const png = (color = { r: 200, g: 40, b: 90 }): Promise<Buffer> =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: color } })
    .png()
    .toBuffer();
