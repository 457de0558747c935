import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startUpError } from './startup-error.ts';
import { ConfigError, definePlugin, type ControllerConfig } from '../../src/index.ts';
import { checkTarget } from '../../src/controllers/check-target.ts';
import type { At } from '../../src/controllers/check-list.ts';
import { assertConfigError, expectRefusal } from '../support/config-error.ts';
import { enginePlugin, Note } from '../fixtures/engine.ts';

/*
 * Targets (docs/controllers.md, "Targets"): `list.recordUrl` and a form's `redirects` are relative
 * application routes of `{ctl}`, `:id` and plain segments, checked at start-up. The start-up cases
 * need no database: nothing listens at the URL, so a configuration that passes every check fails on
 * the first query.
 */

async function start(controller: ControllerConfig): Promise<unknown> {
  const plugin = definePlugin({ vendor: 'test', name: 'targets', entities: enginePlugin.entities, controllers: [controller] });
  return startUpError([plugin]);
}

type Redirects = NonNullable<NonNullable<ControllerConfig['form']>['redirects']>;
const notes = ({ recordUrl, redirects }: { recordUrl?: string; redirects?: Redirects }): ControllerConfig => ({
  name: 'notes',
  entity: Note,
  list: { columns: { title: { label: 'Title' } }, ...(recordUrl === undefined ? {} : { recordUrl }) },
  form: { fields: { title: { type: 'text' } }, ...(redirects === undefined ? {} : { redirects }) },
});

const expectStarts = (error: unknown) => {
  expect(error).not.toBeInstanceOf(ConfigError);
  expect(String(error)).toMatch(/ECONNREFUSED/);
};
const place = (key: string) => ({ plugin: 'test.targets', controller: 'test/targets/notes', key });

const VALID = ['{ctl}/update/:id', 'acme/shop/orders', '{ctl}', 'acme/shop/orders/preview/:id'];
const VALID_WITHOUT_ID = VALID.filter((target) => !target.includes(':id'));

const REFUSED: Array<[string, string]> = [
  ['another origin', 'https://evil.example'],
  ['a protocol-relative URL', '//evil.example/x'],
  ['an absolute path', '/backend/x'],
  ['a javascript: URL', 'javascript:alert(1)'],
  ['a .. segment', 'acme/../x'],
  ['a query', 'acme/shop?x=1'],
  ['a fragment', 'acme/shop#x'],
  ['a backslash', 'acme\\shop'],
  ['whitespace', 'acme shop'],
  ['an empty target', ''],
  ['201 characters', `acme/${'a'.repeat(196)}`],
];

describe('start-up: targets (recordUrl and redirects)', () => {
  it.each(VALID)('recordUrl %j starts', async (recordUrl) => {
    expectStarts(await start(notes({ recordUrl })));
  });

  it.each(VALID)('%j as a redirect after create and update starts', async (target) => {
    expectStarts(await start(notes({ redirects: { create: { redirect: target }, update: { redirect: target, redirectClose: target } } })));
  });

  it.each(VALID_WITHOUT_ID)('%j as create.redirectClose and default starts', async (target) => {
    expectStarts(await start(notes({ redirects: { create: { redirectClose: target }, default: target } })));
  });

  it('a 200-character target starts (201 is refused below)', async () => {
    const recordUrl = `acme/${'a'.repeat(195)}`;
    expect([recordUrl.length, REFUSED.at(-1)![1].length]).toEqual([200, 201]);
    expectStarts(await start(notes({ recordUrl })));
  });

  it.each(REFUSED)('refuses %s (%j) as recordUrl and as every redirect, naming the key', async (_what, target) => {
    const keys: Array<[string, ControllerConfig]> = [
      ['list.recordUrl', notes({ recordUrl: target })],
      ['form.redirects.create.redirect', notes({ redirects: { create: { redirect: target } } })],
      ['form.redirects.create.redirectClose', notes({ redirects: { create: { redirectClose: target } } })],
      ['form.redirects.update.redirect', notes({ redirects: { update: { redirect: target } } })],
      ['form.redirects.update.redirectClose', notes({ redirects: { update: { redirectClose: target } } })],
      ['form.redirects.default', notes({ redirects: { default: target } })],
    ];
    for (const [key, controller] of keys) {
      const error = assertConfigError(await start(controller), 'controller_value_invalid', place(key));
      expect(error.message).toContain(`key "${key}"`);
      expect(error.message).toMatch(/Use an application route .*such as "\{ctl\}/);
    }
  });

  it.each([
    ['form.redirects.default', notes({ redirects: { default: '{ctl}/update/:id' } })],
    ['form.redirects.create.redirectClose', notes({ redirects: { create: { redirectClose: 'acme/shop/orders/preview/:id' } } })],
  ])('refuses :id in %s (there is no record), with an example without it', async (key, controller) => {
    const error = assertConfigError(await start(controller), 'controller_value_invalid', place(key));
    expect(error.message).toContain(`key "${key}"`);
    expect(error.message).toContain('Use an application route without ":id", such as "{ctl}"');
  });

  it('the message of a refused target (the record of what it shows)', async () => {
    const error = await start(notes({ recordUrl: 'https://evil.example' }));
    expect(assertConfigError(error, 'controller_value_invalid').message).toBe(
      'plugin "test.targets", controller "test/targets/notes", key "list.recordUrl": "https://evil.example" has the segment "https:", which is not {ctl}, :id or a plain segment ([a-z0-9][a-z0-9_-]*). Use an application route such as "{ctl}/update/:id" or "acme/shop/orders".',
    );
  });
});

describe('checkTarget (property)', () => {
  const at: At = (code, key, problem, fix) => ConfigError.at(code, { key }, problem, fix);
  const check =
    (value: string, id = true) =>
    () =>
      checkTarget(at, 'list.recordUrl', value, { id });
  const refused = (value: string, id = true) => {
    const error = expectRefusal(check(value, id), { code: 'controller_value_invalid', key: 'list.recordUrl' });
    expect(error.message).toContain('key "list.recordUrl"');
  };

  /** Characters near the grammar's edges, so generated strings are often almost targets. */
  const near = fc.string({ unit: fc.constantFrom(...'aZ09_-/:id{ctl}.?#\\ '.split('')), maxLength: 40 });
  const plain = fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9_-]{0,8}$/);
  const target = fc
    .array(fc.oneof(plain, fc.constant('{ctl}'), fc.constant(':id')), { minLength: 1, maxLength: 6 })
    .map((segments) => segments.join('/'));

  it('accepts any route of {ctl}, :id and plain segments', () => {
    fc.assert(
      fc.property(target, (value) => {
        expect(check(value)).not.toThrow();
      }),
    );
  });

  it('refuses any string with ":" other than as the :id segment', () => {
    const colon = fc
      .oneof(
        near,
        fc.tuple(target, fc.nat(), near).map(([value, cut, extra]) => `${value.slice(0, cut)}:${extra}${value.slice(cut)}`),
      )
      .filter((value) => value.split('/').some((segment) => segment.includes(':') && segment !== ':id'));
    fc.assert(
      fc.property(colon, (value) => {
        refused(value);
      }),
    );
  });

  it('refuses any string with "/" at either end', () => {
    const any = fc.oneof(target, near, fc.string({ maxLength: 40, unit: 'grapheme' }));
    fc.assert(
      fc.property(any, fc.boolean(), (value, leading) => {
        refused(leading ? `/${value}` : `${value}/`);
        refused(`/${value}/`, false);
      }),
    );
  });
});
