import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionsPlugin } from '../fixtures/actions.ts';
import { enginePlugin } from '../fixtures/engine.ts';
import { labPlugin } from '../fixtures/field-types.ts';
import { partialsPlugin } from '../fixtures/partials.ts';
import { relationsPlugin } from '../fixtures/relations.ts';
import { prefsPlugin } from '../fixtures/settings.ts';
import { API, startTestAdmin, TEST_SECRET, type TestAdmin } from '../../../../test/support/app.ts';
import { expectListsExactlyWhatAnswers } from '../../../../test/support/openapi-answered.ts';
import { DocumentChecker, expectBaseline } from '../../../../test/support/openapi-document.ts';

/*
 * The OpenAPI document of an admin with every fixture plugin (docs/openapi.md): valid OpenAPI
 * 3.0.3, one operation per route of the route table and nothing else, every `$ref` resolving,
 * and nothing secret in it.
 */

const ENV_SECRET = 'env-supplied-webhook-secret-0123456789';
const plugins = [enginePlugin, relationsPlugin, actionsPlugin, labPlugin(), partialsPlugin, prefsPlugin];

describe('the OpenAPI document', () => {
  let t: TestAdmin;
  let document: Record<string, unknown> & { paths: Record<string, Record<string, { operationId: string }>> };

  beforeAll(async () => {
    t = await startTestAdmin({ plugins, settings: { env: { shop: { webhook_secret: ENV_SECRET } } } });
    document = t.core.openapi.document as unknown as typeof document;
  });
  afterAll(() => t.close());

  it('is byte for byte the recorded baseline (docs/openapi.md, "The baseline")', () => {
    expectBaseline(t.core.openapi, new URL('./__baseline__/fixtures.json', import.meta.url));
  });

  it('is valid OpenAPI 3.0.3', async () => {
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)?.slice(0, 4000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.0.3');
  });

  it('compiles: every schema and `$ref` of every answer resolves', () => {
    const checker = new DocumentChecker(document, API);
    expect(checker.compileAll()).toBeGreaterThan(100);
  });

  it('has one operation per route of the route table, and no other', () => {
    const expected = t.core.routes.map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, '{$1}')}`).sort();
    const described = Object.entries(document.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`))
      .sort();
    expect(described).toEqual(expected);
    expect(t.core.openapi.undescribed).toEqual([]);
    const ids = Object.values(document.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.servers).toEqual([{ url: API, description: expect.any(String) }]);
  });

  it('lists for each controller exactly the routes it answers (docs/openapi.md, "Operations")', () => {
    // Partials only where declared, pivot routes only beside a pivot form, each relation write only
    // where a toolbar declares it, options only where a field or a scope filter can answer, …
    expect(expectListsExactlyWhatAnswers(t.core)).toBeGreaterThan(100);
  });

  it('names no secret, no password value and no internal table', () => {
    const text = JSON.stringify(document);
    expect(text).not.toContain(TEST_SECRET);
    expect(text).not.toContain(ENV_SECRET);
    expect(text).not.toContain('password_hash');
    expect(text).not.toMatch(/cms_admins|cms_sessions|test_engine_notes|tfx_lab_items/);
    // Password fields are write-only inputs, never part of a record.
    const schemas = (document.components as { schemas: Record<string, { properties?: Record<string, unknown> }> }).schemas;
    expect(schemas['cms.backend.admins.Record']!.properties).not.toHaveProperty('password');
    expect(schemas['cms.backend.admins.Create']!.properties!.password).toMatchObject({ writeOnly: true, format: 'password' });
    expect(JSON.stringify(schemas['cms.backend.admins.Create'])).not.toContain('"default"');
  });

  it('describes records, rows, bodies and filters from the controller configuration', () => {
    const schemas = (document.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
    const record = schemas['test.engine.notes.Record'] as { properties: Record<string, unknown>; required: string[] };
    // Every field with a value: `remark` (update only) and `code` (read-only) too; never the `pin` password.
    expect(Object.keys(record.properties).sort()).toEqual(
      ['body', 'code', 'heading', 'id', 'label', 'labels', 'rank', 'remark', 'reviewer', 'status', 'title'].sort(),
    );
    expect(record.properties.heading).toMatchObject({ type: 'object', required: ['en', 'de'] });
    expect(record.properties.label).toEqual({ type: 'integer', minimum: 1, maximum: 2_147_483_647, nullable: true });
    expect(record.properties.labels).toMatchObject({ type: 'array', items: { type: 'integer' } });
    // A stored value is served as it is: the options bind the bodies, not the record (docs/openapi.md, "Requests and answers").
    expect(record.properties.status).toMatchObject({ type: 'string' });
    expect(record.properties.status).not.toHaveProperty('enum');
    const create = schemas['test.engine.notes.Create'] as { properties: Record<string, unknown>; required: string[] };
    expect(create.properties.status).toMatchObject({ enum: ['open', 'closed', 'gone'] });
    expect(create.required).toEqual(['title']);
    expect(Object.keys(create.properties)).not.toContain('code'); // read-only
    expect(Object.keys(create.properties)).not.toContain('remark'); // update only
    expect(Object.keys(create.properties)).toContain('pin');
    const update = schemas['test.engine.notes.Update'] as { properties: Record<string, unknown> };
    expect(Object.keys(update.properties)).toContain('remark');
    const row = schemas['test.engine.notes.Row'] as { properties: Record<string, unknown> };
    expect(row.properties).toMatchObject({
      labels: { type: 'array', items: { type: 'string' } },
      label: { type: 'string', nullable: true },
    });
    const list = document.paths['/test/engine/notes']!.get as unknown as {
      parameters: Array<{ name: string; schema: Record<string, unknown> }>;
    };
    expect(list.parameters.find((p) => p.name === 'sort')!.schema).toEqual({ type: 'string', enum: ['title', 'rank'] });
    expect(list.parameters.find((p) => p.name === 'per_page')!.schema).toEqual({ type: 'integer', enum: [5, 10] });
    const filter = list.parameters.find((p) => p.name === 'filter')! as unknown as {
      style: string;
      schema: { properties: Record<string, unknown> };
    };
    expect(filter.style).toBe('deepObject');
    expect(Object.keys(filter.schema.properties)).toEqual(['status', 'ranked', 'code', 'owner']);
    // Plugin field types: any JSON value without a `valueSchema`; translatable ones per locale.
    const item = schemas['tfx.lab.items.Record'] as { properties: Record<string, Record<string, unknown>> };
    expect(item.properties.motto).toMatchObject({ type: 'object', required: ['en', 'de'] });
  });

  it('names the actions, relations and partials of each controller', () => {
    const op = (path: string, method = 'post') =>
      (document.paths[path]![method] as unknown as { parameters: Array<{ name: string; schema: { enum?: unknown[] } }> }).parameters;
    expect(op('/test/actions/items/{id}/actions/{action}').find((p) => p.name === 'action')!.schema.enum).toEqual(
      expect.arrayContaining(['close', 'reopen']),
    );
    expect(op('/test/actions/items/toolbar/{action}').find((p) => p.name === 'X-Requested-With')).toBeDefined();
    expect(op('/test/relations/crews/{id}/relations/{name}', 'get').find((p) => p.name === 'name')!.schema.enum).toEqual([
      'members',
      'badges',
    ]);
    expect(op('/test/partials/cards/partials/{name}', 'get').find((p) => p.name === 'name')!.schema.enum).toContain('card');
  });

  it('lists each status the pipeline and the handler answer, with the core\u2019s codes', () => {
    const show = document.paths['/test/engine/notes/{id}']!;
    const statuses = (operation: unknown) => Object.keys((operation as { responses: object }).responses);
    expect(statuses(show.get)).toEqual(['200', '401', '403', '404', '422', '500']);
    // Every write may answer 409 transient_conflict (docs/errors.md, "Transient conflicts").
    expect(statuses(show.put)).toEqual(['200', '401', '403', '404', '409', '412', '422', '500']);
    expect(statuses(document.paths['/auth/login']!.post)).toEqual(['200', '401', '409', '422', '429', '500']);
    expect(statuses(document.paths['/lang']!.get)).toEqual(['200', '304', '422', '500']);
    expect((document.paths['/lang']!.get as unknown as { security: unknown[] }).security).toEqual([]);
    const schemas = (
      document.components as { schemas: Record<string, { properties: { error: { properties: { code: { enum: string[] } } } } }> }
    ).schemas;
    expect(schemas.Error409!.properties.error.properties.code.enum.sort()).toEqual([
      'action_not_applicable',
      'bulk_partly_scoped',
      'reorder_stale',
      'transient_conflict',
    ]);
    expect(schemas.Error422!.properties.error.properties.code.enum).toContain('money.invalid');
  });
});
