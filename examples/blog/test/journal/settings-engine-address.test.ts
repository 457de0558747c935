import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../src/env.ts';
import { API, createTestDatabase, start, type Started } from '../support/app.ts';

/*
 * The journal's engine address as the example app allows it (docs/journal.md, "The engine's
 * address"): outside production, a developer's own Typesense on `localhost` or a private address
 * can be saved from the settings form; in production (without `TYPESENSE_URL`) it cannot. Link-local
 * and metadata addresses are refused in both modes.
 */

const PASSWORD = 'correct horse battery';
const LOCAL = ['http://localhost:8108', 'http://127.0.0.1:8108', 'http://[::1]:8108', 'http://10.0.0.5:8108', 'http://192.168.1.20:8108'];
const NEVER = [
  'http://169.254.169.254/latest',
  'http://169.254.10.1:8108',
  'http://[fe80::1]:8108',
  'http://[fd00:ec2::254]',
  'http://metadata.google.internal',
  'http://METADATA.google.internal./computeMetadata',
];

/** The example app with `env`, signed in as its first admin. */
async function startedWith(env: Env) {
  const db = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'cms-engine-address-'));
  const started: Started = await start(db, dataDir, { ADMIN_PASSWORD: PASSWORD, ...env });
  const login = await fetch(`${started.app.url}${API}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'admin', password: PASSWORD }),
  });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  const save = async (url: string) => {
    const answer = await fetch(`${started.app.url}${API}/settings/journal`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ typesense_url: url }),
    });
    return { status: answer.status, body: (await answer.json()) as { error?: { details?: Record<string, string[]> } } };
  };
  const close = async () => {
    await started.app.close();
    await db.dispose();
    await rm(dataDir, { recursive: true, force: true });
  };
  return { save, close };
}

type App = Awaited<ReturnType<typeof startedWith>>;

describe('the example app outside production', () => {
  let app: App;
  beforeAll(async () => {
    app = await startedWith({});
  });
  afterAll(() => app?.close());

  it('saves a loopback or private engine address from the settings form', async () => {
    const answers = [];
    for (const url of LOCAL) answers.push([url, (await app.save(url)).status]);
    expect(answers).toEqual(LOCAL.map((url) => [url, 200]));
  });

  it('refuses link-local and metadata addresses with a 422 under the field', async () => {
    for (const url of NEVER) {
      const answer = await app.save(url);
      expect(answer.status, url).toBe(422);
      expect(answer.body.error?.details?.typesense_url, url).toEqual([expect.stringMatching(/link-local, a cloud metadata service/)]);
    }
  });
});

describe('the example app in production', () => {
  let app: App;
  beforeAll(async () => {
    app = await startedWith({ NODE_ENV: 'production', APP_SECRET: 'a-production-secret-of-enough-length-0123' });
  });
  afterAll(() => app?.close());

  it('refuses loopback and private engine addresses, as the journal does by default', async () => {
    for (const url of LOCAL) {
      const answer = await app.save(url);
      expect(answer.status, url).toBe(422);
      expect(answer.body.error?.details?.typesense_url, url).toEqual([
        expect.stringMatching(/on the server itself or on a private network/),
      ]);
    }
  });

  it('refuses link-local and metadata addresses too', async () => {
    const statuses = [];
    for (const url of NEVER) statuses.push((await app.save(url)).status);
    expect(statuses).toEqual(NEVER.map(() => 422));
  });
});
