import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '@cms/admin-core';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { expectError } from '../../../../test/support/auth.ts';
import { signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { png, storeState, upload } from '../../../../packages/admin-core/test/files/support.ts';
import { POSTS, seedCategories, startBlogAdmin } from '../support/blog.ts';

/*
 * A copy runs the rules of a create (docs/actions.md, "Duplicate"): the journal's `duplicate`
 * appends " (copy)" to the title and "-copy" to the slug, both `varchar(255)`; a post whose title
 * or slug a save accepted but whose copy no longer fits is a 422 naming the field, nothing written
 * (row, category links, files, blobs), never the database's "value too long" as a 500.
 */

const ACCESS = 'cms.journal.access_posts';
const TABLES = ['journal_posts', 'journal_posts_categories', 'cms_files', 'cms_audit'];
/** The fixed seed of the property, so that runs repeat; set FC_SEED to explore others. */
const TOO_LONG = ['This field may have at most 255 characters.'];
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20261207;

describe('duplicate runs the rules of a create', () => {
  let t: TestAdmin;
  let editor: Client;
  let category: number;
  const errors: unknown[] = [];
  const logger: Logger = { info() {}, warn() {}, error: (_message, fields) => errors.push(fields) };
  beforeAll(async () => {
    t = await startBlogAdmin({ logger });
    editor = await signIn(t, { permissions: { [ACCESS]: 1 } });
    [category] = await seedCategories(t, ['Copies']);
  });
  afterAll(() => t.close());

  let counter = 0;
  /** A post created through the API (so a save accepted it), in a category and with a cover image. */
  async function created(title: string, slug = `dup-rules-${(counter += 1)}`): Promise<number> {
    const res = await editor.post(POSTS, { title, slug, categories: [category] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return Number(res.body.data.id);
  }

  const refused = async (id: number) => {
    const before = await snapshot(t, TABLES);
    const store = await storeState(t);
    const res = await editor.post(`${POSTS}/${id}/actions/duplicate`);
    expectError(res, 422, 'validation_failed');
    expect(await snapshot(t, TABLES)).toEqual(before);
    expect(await storeState(t)).toEqual(store);
    return res.body.error.details as Record<string, string[]>;
  };

  it('a 250-character title: the copy is a 422 on the title, nothing written, files and links included', async () => {
    const id = await created('t'.repeat(250));
    expect((await upload(t, editor, POSTS, id, 'cover_image', await png(), 'cover.png')).status).toBe(201);
    expect(await refused(id)).toEqual({ title: TOO_LONG });
    // A title that still fits after " (copy)" is copied.
    const fits = await created('t'.repeat(248));
    const copy = await editor.post(`${POSTS}/${fits}/actions/duplicate`);
    expect(copy.status, JSON.stringify(copy.body)).toBe(200);
    expect(errors).toEqual([]);
  });

  it('a slug over 250 characters: a 422 on the slug; both too long: both in one round', async () => {
    expect(await refused(await created('Long slug', 's'.repeat(251)))).toEqual({ slug: TOO_LONG });
    expect(await refused(await created('é'.repeat(255), 'ß'.repeat(255)))).toEqual({
      title: TOO_LONG,
      slug: TOO_LONG,
    });
    expect(errors).toEqual([]);
  });

  it('property: any post a save accepted either duplicates (200) or is refused with a 422 naming title or slug, never a 500', async () => {
    const statuses = new Map<number, number>();
    const text = fc.oneof(
      fc.string({ minLength: 1, maxLength: 255 }),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 255 }),
      fc.integer({ min: 240, max: 256 }).map((n) => 'x'.repeat(n)),
      fc.integer({ min: 120, max: 130 }).map((n) => '😀'.repeat(n)),
    );
    await fc.assert(
      fc.asyncProperty(text, text, async (title, slugBase) => {
        counter += 1;
        // Unique per run: a slug another run left would make the create, not the copy, refuse.
        const slug = `${counter}-${slugBase}`;
        const create = await editor.post(POSTS, { title, slug });
        if (create.status !== 201) {
          expect(create.status, JSON.stringify(create.body)).toBe(422);
          return;
        }
        const before = await snapshot(t, ['journal_posts']);
        const res = await editor.post(`${POSTS}/${create.body.data.id}/actions/duplicate`);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 200) return;
        expectError(res, 422, 'validation_failed');
        expect(Object.keys(res.body.error.details).every((field) => field === 'title' || field === 'slug')).toBe(true);
        expect(await snapshot(t, ['journal_posts'])).toEqual(before);
      }),
      { numRuns: 40, seed: SEED },
    );
    expect(errors).toEqual([]);
    // Both outcomes were reached: the property is not vacuous.
    expect([...statuses.keys()].sort()).toEqual([200, 422]);
  });
});
