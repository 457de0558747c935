import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, TEST_SECRET, type TestAdmin } from '../../../../test/support/app.ts';
import { bearer } from '../../../../test/support/auth.ts';
import { signIn } from '../../../../test/support/client.ts';
import { expectListsExactlyWhatAnswers } from '../../../../test/support/openapi-answered.ts';
import { DocumentChecker, expectBaseline } from '../../../../test/support/openapi-document.ts';
import { POSTS, PRODUCTS, startBlogAdmin } from '../support/blog.ts';

/*
 * The example app's OpenAPI document (docs/openapi.md): the journal's and the catalog's
 * controllers with their concrete schemas, valid OpenAPI 3.0.3, every route of the route table
 * described, and the catalog's `color` field type with its declared value schema.
 */

describe("the example app's OpenAPI document", () => {
  let t: TestAdmin;
  let document: {
    paths: Record<string, Record<string, { operationId: string; parameters?: Array<{ name: string; schema: Record<string, unknown> }> }>>;
    components: { schemas: Record<string, { properties?: Record<string, Record<string, unknown>>; required?: string[] }> };
  };

  beforeAll(async () => {
    t = await startBlogAdmin();
    document = t.core.openapi.document as unknown as typeof document;
  });
  afterAll(() => t.close());

  it('is byte for byte the recorded baseline (docs/openapi.md, "The baseline")', () => {
    expectBaseline(t.core.openapi, new URL('./__baseline__/example.json', import.meta.url));
  });

  it('is valid OpenAPI 3.0.3, and every `$ref` resolves', async () => {
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)?.slice(0, 4000)).toEqual([]);
    expect(new DocumentChecker(document, API).compileAll()).toBeGreaterThan(100);
  });

  it('describes every route the app answers, and no other', () => {
    const expected = [...t.core.routes, ...t.core.registry.routes]
      .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, '{$1}')}`)
      .sort();
    const described = Object.entries(document.paths)
      .flatMap(([path, item]) => Object.keys(item).flatMap((key) => (key === 'servers' ? [] : [`${key} ${path}`])))
      .sort();
    expect(described).toEqual(expected);
    expect(t.core.openapi.undescribed).toEqual([]);
    expect(described).toContain(`get /${POSTS}`);
    expect(described).toContain(`post /${PRODUCTS}/{id}/fields/color/upload`);
  });

  it('lists for each controller exactly the routes it answers (docs/openapi.md, "Operations")', () => {
    expect(expectListsExactlyWhatAnswers(t.core)).toBeGreaterThan(30);
  });

  it('lists 429 with `Retry-After` on the colour type\u2019s upload, whose handler runs its image work through `imageWork`', () => {
    type Answer = { $ref?: string; headers?: Record<string, unknown> };
    const upload = (
      document.paths[`/${PRODUCTS}/{id}/fields/color/upload`] as unknown as Record<string, { responses: Record<string, Answer> }>
    ).post!;
    // docs/files.md, "Image work": a full queue answers 429 `too_many_requests` and `Retry-After: 1`.
    expect(Object.keys(upload.responses)).toContain('429');
    const answer = upload.responses['429']!;
    const shared = (document.components as unknown as { responses?: Record<string, Answer> }).responses ?? {};
    const resolved = answer.$ref ? shared[answer.$ref.split('/').pop()!] : answer;
    expect(Object.keys(resolved?.headers ?? {})).toContain('Retry-After');
  });

  it('types the catalog\u2019s colour with its value schema, and lists its error codes among the 422\u2019s', () => {
    const product = document.components.schemas['acme.catalog.products.Record']!;
    expect(product.properties!.color).toEqual({ type: 'string', pattern: '^#[0-9a-fA-F]{6}$', nullable: true });
    expect(product.properties!.price).toMatchObject({ type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' });
    const error = document.components.schemas.Error422! as unknown as {
      properties: { error: { properties: { code: { enum: string[] } } } };
    };
    expect(error.properties.error.properties.code.enum).toEqual(
      expect.arrayContaining(['color.invalid', 'color.not_image', 'money.invalid']),
    );
  });

  it('types the posts\u2019 list filters and sorts as the controller declares them', () => {
    const list = document.paths[`/${POSTS}`]!.get!;
    const filter = list.parameters!.find((parameter) => parameter.name === 'filter')!;
    expect(Object.keys((filter.schema as { properties: object }).properties).length).toBeGreaterThan(0);
    expect(list.parameters!.find((parameter) => parameter.name === 'sort')!.schema.enum).toEqual(expect.any(Array));
  });

  it('describes the journal\u2019s routes outside the admin API on the host\u2019s root, with their own answers', async () => {
    const paths = document.paths as unknown as Record<string, Record<string, unknown> & { servers?: Array<{ url: string }> }>;
    for (const path of ['/_journal/api/v1/media/upload', '/_journal/rss.xml'])
      expect(paths[path]!.servers).toEqual([expect.objectContaining({ url: '/' })]);
    const upload = paths['/_journal/api/v1/media/upload']!.post as {
      responses: Record<string, unknown>;
      requestBody: { content: object };
      tags: string[];
    };
    // 409 `transient_conflict` on every write; 429 when the image queue is full (docs/files.md, "Image work").
    expect(Object.keys(upload.responses).sort()).toEqual(['201', '401', '403', '409', '422', '429', '500']);
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
    expect(upload.tags).toEqual(['cms.journal']);
    const feed = paths['/_journal/rss.xml']!.get as { responses: Record<string, { content?: object }>; security: unknown[] };
    expect(Object.keys(feed.responses['200']!.content!)).toEqual(['application/rss+xml']);
    expect(feed.security).toEqual([]);

    // The checker holds the plugin routes to their description; an API path never matches one.
    const checker = new DocumentChecker(document, API);
    expect(checker.check('GET', '/_journal/rss.xml', 304, undefined).errors).toEqual([]);
    expect(checker.check('GET', '/_journal/rss.xml', 404, undefined).errors).toEqual(['GET /_journal/rss.xml does not declare 404']);
    expect(checker.check('POST', '/_journal/api/v1/media/upload', 201, { data: { url: '/x' }, meta: {} }).errors).not.toEqual([]);
    expect(checker.check('GET', `${API}/_journal/rss.xml`, 200, { data: 1 }).errors).not.toEqual([]);
  });

  it('serves it to a signed-in admin, and its answers match it', async () => {
    const client = await signIn(t, { isSuperuser: true });
    const checker = new DocumentChecker(document, API);
    const served = await t.http.get(`${API}/openapi.json`).set(bearer(client.token));
    expect(served.status).toBe(200);
    expect(served.text).not.toContain(TEST_SECRET);
    checker.expectMatch(served);
    for (const path of [`${POSTS}`, `${POSTS}/schema/form`, `${POSTS}/schema/list`, `${PRODUCTS}`, 'navigation', 'settings', 'field-types'])
      checker.expectMatch(await client.get(path));
  });
});
