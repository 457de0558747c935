import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartialNode } from '@cms/admin-core';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { POSTS, startBlogAdmin } from '../support/blog.ts';
import { expect422, signIn, type Client } from '../../../../test/support/client.ts';
import { countNodes, depthOf, elementsOf, expectAllowed, textOf } from '../../../../test/support/partials.ts';

type Element = Extract<PartialNode, { tag: string }>;
const byClass = (nodes: PartialNode[], name: string): Element | undefined =>
  elementsOf(nodes).find((node) => node.attrs.class?.split(' ').includes(name));

/** The `preview` partial of `cms/journal/posts` (docs/partials.md, "Declaring a partial"): a form partial. */
describe('journal post preview partial', () => {
  let t: TestAdmin;
  let editor: Client;
  let seq = 0;

  beforeAll(async () => {
    t = await startBlogAdmin();
    editor = await signIn(t, { permissions: { 'cms.journal.access_posts': 1 } });
  });
  afterAll(() => t.close());

  const insertPost = async (values: {
    title?: string;
    excerpt?: string | null;
    content?: string | null;
    status?: string;
    published_at?: string | null;
  }) => {
    seq += 1;
    const rows = await t.sql<{ id: number }>(
      'insert into journal_posts (title, slug, excerpt, content, status, published_at) values (?, ?, ?, ?, ?, ?) returning id',
      [
        values.title ?? 'A post',
        `preview-${seq}-${Date.now()}`,
        values.excerpt ?? null,
        values.content ?? null,
        values.status ?? 'draft',
        values.published_at ?? null,
      ],
    );
    return Number(rows[0]!.id);
  };
  const preview = async (id: number, client = editor) => {
    const res = await client.get(`${POSTS}/partials/preview`, { id: String(id) });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    expectAllowed(res.body.data.nodes);
    return res.body.data.nodes as PartialNode[];
  };

  it('shows the title, status, published date, excerpt and the content rendered from markdown', async () => {
    const id = await insertPost({
      title: 'Hello <world> & "friends"',
      excerpt: 'Short & sweet',
      status: 'published',
      published_at: '2024-03-05T14:30:00Z',
      content:
        '# Heading\n\nSome *emphasis*, a [link](https://example.com/x) and a [bad one](javascript:alert(1)).\n\n<script>alert(1)</script>\n\nPress <kbd>Ctrl</kbd> <img src="x" onerror="alert(2)">.\n\n- one\n- two\n',
    });
    const nodes = await preview(id);
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({ tag: 'div', attrs: { class: 'journal-preview' } });
    expect(textOf([byClass(nodes, 'journal-preview-title')!])).toBe('Hello <world> & "friends"');
    expect(byClass(nodes, 'journal-preview-status')).toEqual({
      tag: 'span',
      attrs: { class: 'journal-preview-status journal-preview-status-published' },
      children: [{ text: 'Published' }],
    });
    expect(elementsOf(nodes).find((node) => node.tag === 'time')).toEqual({
      tag: 'time',
      attrs: { datetime: '2024-03-05T14:30:00.000Z' },
      children: [{ text: 'March 5, 2024 at 02:30 PM UTC' }],
    });
    expect(textOf([byClass(nodes, 'journal-preview-excerpt')!])).toBe('Short & sweet');
    const content = byClass(nodes, 'journal-preview-content')!;
    expect(content.children.filter((node) => 'tag' in node).map((node) => (node as Element).tag)).toEqual(['h1', 'p', 'p', 'ul']);
    // Raw HTML is rendered as the markdown preview renders it: sanitized, then allowlisted.
    expect(content.children[4]).toEqual({
      tag: 'p',
      attrs: {},
      children: [
        { text: 'Press ' },
        { tag: 'kbd', attrs: {}, children: [{ text: 'Ctrl' }] },
        { text: ' ' },
        { tag: 'img', attrs: { src: 'x' }, children: [] },
        { text: '.' },
      ],
    });
    expect(JSON.stringify(content)).not.toMatch(/alert\(1\)<|alert\(2\)|script"/);
    expect(content.children[0]).toEqual({ tag: 'h1', attrs: {}, children: [{ text: 'Heading' }] });
    const links = elementsOf(content.children).filter((node) => node.tag === 'a');
    expect(links).toEqual([{ tag: 'a', attrs: { href: 'https://example.com/x' }, children: [{ text: 'link' }] }]);
    // A link with an unsafe URL stays text.
    expect(textOf(content.children)).toContain('[bad one](javascript:alert(1))');
    expect(byClass(nodes, 'journal-preview-truncated')).toBeUndefined();
  });

  it("speaks the admin's locale", async () => {
    const id = await insertPost({ status: 'archived', published_at: '2024-03-05T14:30:00Z' });
    const nodes = (await editor.locale('de').get(`${POSTS}/partials/preview`, { id: String(id) })).body.data.nodes as PartialNode[];
    expect(textOf([byClass(nodes, 'journal-preview-status')!])).toBe('Archiviert');
    expect(textOf([elementsOf(nodes).find((node) => node.tag === 'time')!])).toBe('5. März 2024 um 14:30 UTC');
  });

  it('a draft without a date or excerpt says it is not published, and shows no excerpt', async () => {
    const nodes = await preview(await insertPost({ content: null }));
    expect(textOf([byClass(nodes, 'journal-preview-meta')!])).toContain('Not published yet');
    expect(byClass(nodes, 'journal-preview-excerpt')).toBeUndefined();
    expect(byClass(nodes, 'journal-preview-content')!.children).toEqual([]);
  });

  it('without `id` (a post not saved yet) it asks to save first', async () => {
    const res = await editor.get(`${POSTS}/partials/preview`);
    expect(res.body).toEqual({
      data: { nodes: [{ tag: 'p', attrs: { class: 'journal-preview-empty' }, children: [{ text: 'Save the post to see its preview.' }] }] },
      meta: {},
    });
    expect((await editor.locale('de').get(`${POSTS}/partials/preview`)).body.data.nodes[0].children).toEqual([
      { text: 'Speichern Sie den Beitrag, um die Vorschau zu sehen.' },
    ]);
  });

  it('a long excerpt is shortened; long content shows its leading blocks within the limits, and says so', async () => {
    const paragraphs = Array.from({ length: 3000 }, (_, i) => `Paragraph ${i} with *some* emphasis.`).join('\n\n');
    const nodes = await preview(await insertPost({ excerpt: 'x'.repeat(1000), content: paragraphs }));
    expect(textOf([byClass(nodes, 'journal-preview-excerpt')!])).toBe(`${'x'.repeat(300)}…`);
    expect(countNodes(nodes)).toBeLessThanOrEqual(2000);
    expect(JSON.stringify(nodes).length).toBeLessThan(200_000);
    expect(byClass(nodes, 'journal-preview-truncated')).toEqual({
      tag: 'p',
      attrs: { class: 'journal-preview-truncated' },
      children: [{ tag: 'small', attrs: {}, children: [{ text: 'The preview shows the beginning of the content only.' }] }],
    });
    const content = byClass(nodes, 'journal-preview-content')!;
    expect(textOf(content.children)).toMatch(/^Paragraph 0 with some emphasis\./);
  });

  it('content nested deeper than the limit is cut, not refused', async () => {
    const nodes = await preview(await insertPost({ content: `First paragraph.\n\n${'>'.repeat(60)} deep\n\nAfter.` }));
    expect(depthOf(nodes)).toBeLessThanOrEqual(32);
    expect(textOf([byClass(nodes, 'journal-preview-content')!])).toBe('First paragraph.\n');
    expect(byClass(nodes, 'journal-preview-truncated')).toBeDefined();
  });

  it('a missing post is 404; a bad id is 422; without the permission it is 403', async () => {
    expect((await editor.get(`${POSTS}/partials/preview`, { id: '2147483647' })).status).toBe(404);
    expect422(await editor.get(`${POSTS}/partials/preview`, { id: 'first' }), ['id']);
    const outsider = await signIn(t, { permissions: { 'cms.journal.access_categories': 1 } });
    expect((await outsider.get(`${POSTS}/partials/preview`, { id: String(await insertPost({})) })).status).toBe(403);
    expect((await editor.get(`${POSTS}/partials/summary`)).status).toBe(404);
  });

  it('the form schema shows the partial field by its path', async () => {
    const form = (await editor.get(`${POSTS}/schema/form`)).body.data;
    expect(form.fields.find((field: { name: string }) => field.name === 'preview')).toMatchObject({ type: 'partial', path: 'preview' });
  });

  it('whatever a post holds, the preview is allowlisted nodes within the limits, never a 500', async () => {
    const markdownish = fc.array(
      fc.oneof(
        fc.constantFrom(
          '# ',
          '> ',
          '- ',
          '1. ',
          '```\n',
          '`',
          '*',
          '_',
          '[a](javascript:alert(1))',
          '[b](https://x.example)',
          '![i](data:image/png,x)',
          '<script>x</script>',
          '<a href="javascript:x">',
          '\n\n',
          '    code',
          '| a | b |\n|---|---|\n| 1 | 2 |',
          '&#106;',
          '>'.repeat(40),
          '<img src=x onerror=alert(1)>',
        ),
        fc.string({ maxLength: 20 }),
      ),
      { maxLength: 30 },
    );
    const clean = (value: string) => value.replace(/\u0000/g, '');
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 255 }), fc.string({ maxLength: 400 }), markdownish, async (title, excerpt, content) => {
        const nodes = await preview(await insertPost({ title: clean(title), excerpt: clean(excerpt), content: clean(content.join('')) }));
        expect(countNodes(nodes)).toBeLessThanOrEqual(2000);
        expect(depthOf(nodes)).toBeLessThanOrEqual(32);
      }),
      { numRuns: 60 },
    );
  });
});
