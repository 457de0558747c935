import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '@cms/admin-core';
import { createJournalPlugin } from '@cms/journal';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { expectError } from '../../../../test/support/auth.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { addressRefusal, checkedLookup, hostRefusal } from '../../../../packages/journal/src/search/address.ts';
import { searchQueue } from '../../../../packages/journal/src/search/queue.ts';
import { catalogPlugin } from '../../src/plugins/catalog.ts';
import { POSTS, startBlogAdmin } from '../support/blog.ts';

const KEY = 'address-test-key';
const DENY = { allowPrivateAddresses: false };
const ALLOW = { allowPrivateAddresses: true };

/** Addresses and what the journal does with them: never, only when the host allows private ones, or always. */
const TABLE: Array<[string, 'never' | 'private' | undefined]> = [
  ['169.254.169.254', 'never'],
  ['169.254.170.2', 'never'],
  ['0.0.0.0', 'never'],
  ['::', 'never'],
  ['fe80::1', 'never'],
  ['::ffff:169.254.169.254', 'never'],
  ['::ffff:a9fe:a9fe', 'never'],
  ['64:ff9b::a9fe:a9fe', 'never'],
  ['2002:a9fe:a9fe::1', 'never'],
  ['fd00:ec2::254', 'never'],
  ['100.100.100.200', 'never'],
  ['168.63.129.16', 'never'],
  ['224.0.0.1', 'never'],
  ['255.255.255.255', 'never'],
  ['192.0.2.10', 'never'],
  ['127.0.0.1', 'private'],
  ['127.8.9.10', 'private'],
  ['::1', 'private'],
  ['::ffff:127.0.0.1', 'private'],
  ['10.0.0.5', 'private'],
  ['172.16.3.4', 'private'],
  ['192.168.1.20', 'private'],
  ['100.64.0.1', 'private'],
  ['fd12:3456::1', 'private'],
  ['8.8.8.8', undefined],
  ['2606:4700:4700::1111', undefined],
];

describe('the Typesense address rules (docs/journal.md, "The engine\'s address")', () => {
  it('classifies addresses: never, private unless allowed, public', () => {
    for (const [address, expected] of TABLE) {
      expect(addressRefusal(address, DENY), address).toBe(expected);
      expect(addressRefusal(address, ALLOW), `${address} (allowed)`).toBe(expected === 'never' ? 'never' : undefined);
    }
  });

  it('the connection lookup resolves, checks every address, and answers only checked ones', async () => {
    const lookup = (policy: typeof DENY, host: string) =>
      new Promise<{ error: Error | null; addresses: Array<{ address: string }> }>((resolve) =>
        checkedLookup(policy)(host, {}, (error, addresses) => resolve({ error, addresses })),
      );
    const denied = await lookup(DENY, 'localhost');
    expect(denied.error?.message).toMatch(/own machine or private network/);
    expect(denied.addresses).toEqual([]);
    const allowed = await lookup(ALLOW, 'localhost');
    expect(allowed.error).toBeNull();
    expect(allowed.addresses.length).toBeGreaterThan(0);
    for (const { address } of allowed.addresses) expect(addressRefusal(address, ALLOW)).toBeUndefined();
  });

  it('refuses a metadata service by its name, before any lookup, whatever the host allows', async () => {
    for (const host of ['metadata.google.internal', 'Metadata.Google.Internal.']) {
      expect(await hostRefusal(host, ALLOW), host).toBe('never');
      const answer = await new Promise<{ error: Error | null; addresses: unknown[] }>((resolve) =>
        checkedLookup(ALLOW)(host, {}, (error, addresses) => resolve({ error, addresses })),
      );
      expect(answer.error?.message, host).toMatch(/metadata service/);
      expect(answer.addresses).toEqual([]);
    }
  });
});

/** A stub engine on 127.0.0.1 that records every request it gets. */
async function stubEngine() {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { port, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Points every proxy variable axios reads (through proxy-from-env) at `url`; answers the undo. */
function proxyEnvironment(url: string): () => void {
  const names = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'ALL_PROXY', 'all_proxy'];
  const cleared = ['NO_PROXY', 'no_proxy', 'npm_config_http_proxy', 'npm_config_https_proxy', 'npm_config_proxy', 'npm_config_no_proxy'];
  const before = new Map([...names, ...cleared].map((name) => [name, process.env[name]]));
  for (const name of names) process.env[name] = url;
  for (const name of cleared) delete process.env[name];
  return () => {
    for (const [name, value] of before) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

for (const allowPrivate of [false, true]) {
  describe(`typesense_url ${allowPrivate ? 'with' : 'without'} the host's allowPrivateAddresses`, () => {
    let t: TestAdmin;
    let su: Client;
    let engine: Awaited<ReturnType<typeof stubEngine>>;
    const logged: Array<{ message: string; fields: unknown }> = [];
    const logger: Logger = { info() {}, warn() {}, error: (message, fields) => logged.push({ message, fields }) };

    beforeAll(async () => {
      searchQueue.configure({ retryDelaysMs: [20], timeoutMs: 1000 });
      engine = await stubEngine();
      const journal = allowPrivate ? createJournalPlugin({ typesense: { allowPrivateAddresses: true } }) : createJournalPlugin();
      t = await startBlogAdmin({ logger, plugins: [journal, catalogPlugin] });
      su = await signIn(t, { isSuperuser: true });
    });
    afterAll(async () => {
      await t.close();
      await engine.close();
      searchQueue.configure({ retryDelaysMs: [500, 2000, 8000, 30000], timeoutMs: 5000 });
    });
    beforeEach(async () => {
      await until(() => searchQueue.size === 0, 'the queue to drain');
      logged.length = 0;
      engine.requests.length = 0;
      await t.sql("delete from cms_settings where code = 'journal'");
    });

    const save = (url: string) => su.put('settings/journal', { search_use_typesense: true, typesense_url: url, typesense_api_key: KEY });
    const storedUrl = async () =>
      (await t.sql<{ url: string | null }>(`select data->>'typesense_url' as url from cms_settings where code = 'journal'`))[0]?.url ??
      null;

    it('refuses link-local, metadata and unspecified addresses on save, whatever the host allows; nothing is written', async () => {
      for (const url of [
        'http://169.254.169.254',
        'http://169.254.169.254:80/latest',
        'http://0.0.0.0:8108',
        'http://[::]:8108',
        'http://[fe80::1]:8108',
        'http://[::ffff:169.254.169.254]',
      ]) {
        const res = await save(url);
        expectError(res, 422, 'validation_failed');
        expect(Object.keys(res.body.error.details), url).toEqual(['typesense_url']);
        expect(res.body.error.details.typesense_url[0]).toMatch(/link-local, a cloud metadata service/);
        expect(await storedUrl()).toBeNull();
      }
      expectError(await save('ftp://search.example.com'), 422, 'validation_failed');
    });

    it(`${allowPrivate ? 'accepts' : 'refuses'} loopback and private addresses on save (names resolved)`, async () => {
      for (const url of [
        'http://127.0.0.1:8108',
        'http://localhost:8108',
        'http://[::1]:8108',
        'http://10.1.2.3:8108',
        'http://192.168.0.9',
      ]) {
        const res = await save(url);
        if (allowPrivate) {
          expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
          expect(await storedUrl()).toBe(url);
        } else {
          expectError(res, 422, 'validation_failed');
          expect(res.body.error.details.typesense_url[0], url).toMatch(/on the server itself or on a private network/);
        }
      }
      // A public address is fine either way (an IP literal: nothing is resolved, nothing is called).
      expect((await save('https://8.8.8.8:8108')).status).toBe(200);
    });

    it(`checks the resolved address again on every request: ${allowPrivate ? 'reaches' : 'never reaches'} a name that now resolves to loopback`, async () => {
      // Saved while public; the name now points at the host's own machine (DNS rebinding): here the
      // stored value is changed by SQL, as a rebinding would change the name's address.
      expect((await save('https://8.8.8.8:8108')).status).toBe(200);
      await t.sql(`update cms_settings set data = jsonb_set(data, '{typesense_url}', to_jsonb(?::text)) where code = 'journal'`, [
        `http://localhost:${engine.port}`,
      ]);
      const [row] = await t.sql<{ id: number }>(
        `insert into journal_posts (title, slug, status) values ('Rebound', 'rebound', 'draft') returning id`,
      );
      expect((await su.post(`${POSTS}/${row!.id}/actions/publish`)).status).toBe(200);
      if (allowPrivate) {
        await until(() => engine.requests.length > 0, 'the engine to get the upsert');
        expect(engine.requests[0]).toMatch(/^POST \/collections\/posts\/documents/);
      } else {
        await until(() => logged.length === 1, 'the refusal to be logged');
        expect(JSON.stringify(logged[0]!.fields)).toMatch(
          /the Typesense URL is refused: the address (127\.0\.0\.1|::1) is on the host's own machine/,
        );
        expect(engine.requests).toEqual([]);
      }
    });

    it(`never goes through HTTP_PROXY/HTTPS_PROXY: ${allowPrivate ? 'reaches the engine directly' : 'still refuses a name that resolves to loopback'}; the proxy gets nothing`, async () => {
      // A proxy on 127.0.0.1 (an IP literal: nothing would be looked up for it) that answers every request.
      const proxy = await stubEngine();
      const restore = proxyEnvironment(`http://127.0.0.1:${proxy.port}`);
      try {
        expect((await save('https://8.8.8.8:8108')).status).toBe(200);
        await t.sql(`update cms_settings set data = jsonb_set(data, '{typesense_url}', to_jsonb(?::text)) where code = 'journal'`, [
          `http://localhost:${engine.port}`,
        ]);
        const [row] = await t.sql<{ id: number }>(
          `insert into journal_posts (title, slug, status) values ('Proxied', 'proxied', 'draft') returning id`,
        );
        expect((await su.post(`${POSTS}/${row!.id}/actions/publish`)).status).toBe(200);
        if (allowPrivate) {
          await until(() => engine.requests.length > 0, 'the engine to get the upsert');
          expect(engine.requests[0]).toMatch(/^POST \/collections\/posts\/documents/);
        } else {
          await until(() => logged.length === 1, 'the refusal to be logged');
          expect(JSON.stringify(logged[0]!.fields)).toMatch(
            /the Typesense URL is refused: the address (127\.0\.0\.1|::1) is on the host's own machine/,
          );
          expect(engine.requests).toEqual([]);
        }
        expect(proxy.requests).toEqual([]);
      } finally {
        restore();
        await proxy.close();
      }
    });

    it('refuses an IP literal it may not reach at request time, before any connection', async () => {
      expect((await save('https://8.8.8.8:8108')).status).toBe(200);
      const target = allowPrivate ? 'http://169.254.169.254' : `http://127.0.0.1:${engine.port}`;
      await t.sql(`update cms_settings set data = jsonb_set(data, '{typesense_url}', to_jsonb(?::text)) where code = 'journal'`, [target]);
      const [row] = await t.sql<{ id: number }>(
        `insert into journal_posts (title, slug, status) values ('Literal', 'literal', 'draft') returning id`,
      );
      expect((await su.post(`${POSTS}/${row!.id}/actions/publish`)).status).toBe(200);
      await until(() => logged.length === 1, 'the refusal to be logged');
      expect(JSON.stringify(logged[0]!.fields)).toMatch(/the Typesense URL is refused/);
      expect(engine.requests).toEqual([]);
    });
  });
}
