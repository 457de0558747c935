import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, TEST_SECRET, type TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { entityTag } from '../../src/behaviors/form/version.ts';
import { enginePlugin, NOTES } from '../fixtures/engine.ts';

/**
 * Issue 22, "Seen in the code": the version tag was the plain SHA-256 of every stored column, so
 * anyone who saw a tag and the visible columns could try the values of a hidden low-entropy column
 * (a PIN's length, a flag) offline until the digest matched. The tag is now keyed by the app's
 * secret (docs/controllers.md, "Versions and If-Match").
 */
describe('the version tag is keyed by the app secret', () => {
  let t: TestAdmin;
  let su: Client;

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [enginePlugin] });
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  /** The stored row as the tag digests it: `row(e.*)::text`, hidden columns included. */
  const rowDigest = async (id: number) => {
    const [row] = await t.sql<{ text: string }>('select row(e.*)::text as text from test_engine_notes e where id = ?', [id]);
    return createHash('sha256').update(row!.text, 'utf8').digest('hex');
  };
  const tagOf = (hash: { update(data: string): unknown; digest(encoding: 'base64url'): string }, digest: string) => {
    hash.update(digest);
    hash.update(`\nlabels=${JSON.stringify([])}`);
    return `"${hash.digest('base64url').slice(0, 27)}"`;
  };

  it('cannot be recomputed from the row without the secret: guessing a hidden column finds no match', async () => {
    const created = await su.post(NOTES, { title: 'a secret pin' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id as number;
    // A hidden column of low entropy: one of 10 values, none of them shown by the form.
    await t.sql('update test_engine_notes set pin_length = 6 where id = ?', [id]);
    const shown = await su.get(`${NOTES}/${id}`);
    expect(shown.status).toBe(200);
    const tag = shown.headers.etag as string;
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);

    // The offline attack of the unkeyed tag: every guess of the hidden column, digested as stored.
    const guesses: string[] = [];
    for (let guess = 0; guess < 10; guess++) {
      await t.sql('update test_engine_notes set pin_length = ? where id = ?', [guess, id]);
      guesses.push(tagOf(createHash('sha256'), await rowDigest(id)));
    }
    expect(guesses).not.toContain(tag);

    // With the key derived from the secret, the right row gives the tag (and only the right one).
    await t.sql('update test_engine_notes set pin_length = 6 where id = ?', [id]);
    const key = Buffer.from(hkdfSync('sha256', TEST_SECRET, 'cms.backend/versions', 'cms record versions v1', 32));
    expect(tagOf(createHmac('sha256', key), await rowDigest(id))).toBe(tag);
    expect((await su.get(`${NOTES}/${id}`)).headers.etag).toBe(tag);
  });

  it('changes with the secret', async () => {
    const controller = t.core.controllers.get(NOTES)!;
    const digest = createHash('sha256').update('(1,"a note")').digest('hex');
    const data = { id: 1, labels: [3, 1] };
    const one = entityTag(controller, digest, data, TEST_SECRET);
    expect(one).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(entityTag(controller, digest, data, TEST_SECRET)).toBe(one);
    expect(entityTag(controller, digest, data, `${TEST_SECRET}-rotated`)).not.toBe(one);
    // Still a version: another row or other belongsToMany ids are another tag.
    expect(entityTag(controller, digest, { ...data, labels: [1, 3] }, TEST_SECRET)).not.toBe(one);
  });
});
