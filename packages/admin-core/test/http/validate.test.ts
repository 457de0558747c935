import { describe, expect, it } from 'vitest';
import { STATUS_BY_KIND } from '../../src/errors/codes.ts';
import { isAdminError } from '../../src/errors/index.ts';
import { compileRouteChecks } from '../../src/http/validate.ts';
import type { AdminRequest, RouteDefinition } from '../../src/http/types.ts';
import { coreStrings } from '../../src/i18n/core-strings.ts';
import { Strings } from '../../src/i18n/strings.ts';
import { arrayOf, ID, integer, object, string } from '../../src/schema/json.ts';
import { headerParam, idParam, jsonBody, namedParam, ok, queryParam, type RouteSchema } from '../../src/schema/route.ts';
import { ref } from '../../src/schema/types.ts';
import { checkValue } from '../../src/schema/validate.ts';

/*
 * Input checks compiled from route descriptions (docs/architecture.md, "Request flow"): the
 * details keys and message keys are those the hand-written checks used (docs/errors.md, "What
 * makes a validation_failed"), a path parameter outside its schema is a 404, and a body that is
 * not an object says so.
 */

const strings = (() => {
  const s = new Strings(['en'], 'en');
  s.add('backend', coreStrings);
  return s;
})();
const t = (key: string, params?: Record<string, string | number>, count?: number) => strings.t('en', key, params, count);

const BODY = object(
  {
    ids: arrayOf(ID, { minItems: 1, maxItems: 3 }),
    name: string({ minLength: 2, maxLength: 5 }),
    email: string({ format: 'email' }),
    rank: integer({ minimum: 1, maximum: 9 }),
    kind: string({ enum: ['a', 'b'] }),
  },
  ['name'],
);

const description: RouteSchema = {
  id: 'test.things',
  summary: 'A route of the test',
  parameters: [
    idParam(),
    namedParam('kind', 'A kind.', ['a', 'b']),
    queryParam('page', 'A page.', integer({ minimum: 1 })),
    headerParam('X-Session-Key', 'A key.', string({ pattern: '^[a-z]+$' })),
  ],
  body: jsonBody(BODY),
  messages: { 'X-Session-Key': 'backend::validation.no_nul', 'kind:enum': 'backend::validation.step' },
  success: ok('Done.', ref('EmptyMeta')),
};

const route: RouteDefinition = { method: 'PUT', path: '/things/:id/:kind', schema: description, handler: () => ({ status: 200 }) };
const check = compileRouteChecks(new Map([[route, description]]), { EmptyMeta: { type: 'object' } }).get(route)!;

function request(overrides: Partial<AdminRequest> = {}): AdminRequest {
  return {
    method: 'PUT',
    path: '/things/1/a',
    params: { id: '1', kind: 'a' },
    query: {},
    headers: {},
    body: { name: 'ada' },
    files: [],
    ip: '127.0.0.1',
    requestId: 'r',
    locale: 'en',
    ...overrides,
  };
}

/** The refusal `check` throws for `req`: its status and details. */
function refusal(req: AdminRequest): { status: number; details: Record<string, string[]> } | undefined {
  try {
    check(req, strings);
    return undefined;
  } catch (error) {
    if (!isAdminError(error)) throw error;
    return { status: STATUS_BY_KIND[error.kind], details: (error.details ?? {}) as Record<string, string[]> };
  }
}

describe('route checks from descriptions', () => {
  it('let a valid request through', () => {
    expect(refusal(request({ body: { ids: [1, 2], name: 'ada', email: 'a@b.example', rank: 3, kind: 'b' } }))).toBeUndefined();
    expect(refusal(request({ query: { page: '2' }, headers: { 'x-session-key': 'abc' } }))).toBeUndefined();
  });

  it('answer 404 for a path parameter outside its schema, whatever else is wrong', () => {
    for (const params of [
      { id: '0', kind: 'a' },
      { id: '01', kind: 'a' },
      { id: '1', kind: 'c' },
      { id: '2147483648', kind: 'a' },
    ]) {
      expect(refusal(request({ params, body: 'nonsense' }))?.status).toBe(404);
    }
  });

  it('name each failing key with the message key of its keyword', () => {
    const failure = refusal(request({ body: { ids: [0, 'x'], email: 'no', rank: 10, kind: 'c', extra: 1 } }));
    expect(failure?.status).toBe(422);
    expect(failure?.details).toEqual({
      name: [t('backend::validation.required')],
      extra: [t('backend::validation.unknown_key')],
      'ids[0]': [t('backend::validation.min', { min: 1 })],
      'ids[1]': [t('backend::validation.integer')],
      email: [t('backend::validation.email')],
      rank: [t('backend::validation.max', { max: 9 })],
      kind: [t('backend::validation.step')],
    });
    expect(refusal(request({ body: { name: 'a', ids: [] } }))?.details).toEqual({
      name: [t('backend::validation.min_length', {}, 2)],
      ids: [t('backend::validation.min_items', {}, 1)],
    });
  });

  it('refuse a body that is not an object, and name a bad query or header parameter', () => {
    for (const body of [[], 'text', 3]) {
      expect(refusal(request({ body }))?.details).toEqual({ body: [t('backend::validation.body_object')] });
    }
    expect(refusal(request({ query: { page: '0' } }))?.details).toEqual({ page: [t('backend::validation.min', { min: 1 })] });
    expect(refusal(request({ query: { page: 'x' } }))?.details).toEqual({ page: [t('backend::validation.integer')] });
    expect(refusal(request({ headers: { 'x-session-key': 'A!' } }))?.details).toEqual({
      'X-Session-Key': [t('backend::validation.no_nul')],
    });
  });

  it('name a body key called __proto__ without touching the prototype', () => {
    const body = JSON.parse('{"name": "ada", "__proto__": {"polluted": true}}');
    const failure = refusal(request({ body }));
    expect(Object.keys(failure?.details ?? {})).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('check what code hands an operation with the same schema and the same answer', () => {
    expect(checkValue(BODY, { name: 'ada' }, t)).toEqual({ name: 'ada' });
    expect(() => checkValue(BODY, { name: 'ada', rank: 0 }, t)).toThrow(expect.objectContaining({ kind: 'validation' }));
    try {
      checkValue(BODY, { name: 5 }, t, { name: 'backend::validation.invalid' });
    } catch (error) {
      expect(isAdminError(error) && error.details).toEqual({ name: [t('backend::validation.invalid')] });
    }
  });
});
