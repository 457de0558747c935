import { describe, expect, it } from 'vitest';
import { definePlugin, type PluginDefinition } from '@cms/admin-core';
import { backendPlugin } from '../../src/backend-plugin.ts';
import { registerPlugins } from '../../src/core.ts';
import { LAB_ASSETS } from '../fixtures/field-types.ts';
import { expectConfigError } from '../support/config-error.ts';

/*
 * `valueSchema` and `errorCodes` of a plugin field type (docs/openapi.md, "Plugin field types"):
 * plain JSON data and `{name}.{reason}` codes that are not the core's, checked at start-up.
 */

const plugin = (extra: Record<string, unknown>): PluginDefinition =>
  definePlugin({
    vendor: 'tfx',
    name: 'lab',
    assets: LAB_ASSETS,
    fieldTypes: { thing: { element: 'tfx-thing', assets: { scripts: ['stamp.js'] }, decode: (value: unknown) => value, ...extra } },
  });

const register = (extra: Record<string, unknown>) => registerPlugins([backendPlugin, plugin(extra)], { prefix: '/backend' });

describe('valueSchema and errorCodes of a plugin field type', () => {
  it('accept a JSON schema object and codes of the plugin\u2019s own', () => {
    const registry = register({
      valueSchema: { type: 'string', maxLength: 7, nullable: true },
      errorCodes: ['thing.invalid', 'thing.too.long'],
    });
    expect(registry.fieldTypes.get('thing')).toBeDefined();
  });

  it.each([
    ['a string', 'string'],
    ['an array', [{ type: 'string' }]],
    ['a function inside', { type: 'string', format: () => 'x' }],
  ])('refuse a valueSchema that is %s', (_label, valueSchema) => {
    expectConfigError(() => register({ valueSchema }), 'field_type_value_invalid', {
      plugin: 'tfx.lab',
      key: 'fieldTypes.thing.valueSchema',
    });
  });

  it.each([
    ['not a list', 'thing.invalid'],
    ['a code without a reason', ['thing']],
    ['a core code', ['money.invalid']],
    ['an upper-case code', ['Thing.Invalid']],
  ])('refuse errorCodes that are %s', (_label, errorCodes) => {
    expectConfigError(() => register({ errorCodes }), 'field_type_value_invalid', {
      plugin: 'tfx.lab',
      key: 'fieldTypes.thing.errorCodes',
    });
  });
});
