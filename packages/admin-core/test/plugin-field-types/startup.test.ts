import { describe, expect, it } from 'vitest';
import { definePlugin, type PluginDefinition, type PluginFieldTypeDefinition } from '@cms/admin-core';
import { registerPlugins } from '../../src/core.ts';
import { BUILTIN_FIELD_TYPE_NAMES, isPluginFieldType } from '../../src/fields/config.ts';
import { pluginFieldTypeOf } from '../../src/fields/plugin/field-type.ts';
import { BUILTIN_FIELD_TYPES } from '../../src/fields/registry.ts';
import { checkField } from '../../src/fields/config.ts';
import type { FieldCheckContext, FieldConfig, FieldType, PropertyInfo } from '../../src/fields/types.ts';
import { startTestAdmin } from '../../../../test/support/app.ts';
import { expectConfigError, expectRefusal, type Refusal } from '../support/config-error.ts';
import { LAB_ASSETS, labPlugin, mottoType, stampType } from '../fixtures/field-types.ts';

/** The lab plugin with its `stamp` type replaced by `patch` (no controllers: the registry alone). */
const withStamp = (patch: Record<string, unknown>, extra: Partial<PluginDefinition> = {}) =>
  labPlugin({
    controllers: [],
    fieldTypes: { stamp: { ...stampType, ...patch } as PluginFieldTypeDefinition, motto: mottoType },
    ...extra,
  });

const noop = (): null => null;
const register = (...list: PluginDefinition[]) => registerPlugins(list, { prefix: '/backend' });

describe('plugin field types are checked at start-up', () => {
  it('registers valid types by alias, beside the built-in ones', () => {
    const registry = register(labPlugin({ controllers: [] }));
    expect([...registry.fieldTypes.keys()]).toEqual(['stamp', 'motto']);
    const stamp = pluginFieldTypeOf(registry.fieldTypes.get('stamp'));
    expect(stamp).toMatchObject({
      name: 'stamp',
      plugin: 'tfx.lab',
      element: 'tfx-stamp',
      translatable: false,
      optionKeys: ['maxLength'],
      storage: 'column',
    });
    expect(stamp!.assets).toEqual({ scripts: ['stamp.js'], styles: ['lab.css'] });
    expect(pluginFieldTypeOf(registry.fieldTypes.get('motto'))!.translatable).toBe(true);
  });

  it.each<[string, Partial<PluginDefinition>, Refusal]>([
    [
      'an alias that is not lower case',
      { fieldTypes: { Stamp: stampType } },
      { code: 'field_type_alias_invalid', key: 'fieldTypes.Stamp' },
    ],
    [
      'an alias with an underscore',
      { fieldTypes: { my_stamp: stampType } },
      { code: 'field_type_alias_invalid', key: 'fieldTypes.my_stamp' },
    ],
    ['the alias of a built-in type', { fieldTypes: { text: stampType } }, { code: 'field_type_alias_taken', key: 'fieldTypes.text' }],
    ['fieldTypes that is not an object', { fieldTypes: [] as never }, { code: 'field_type_value_invalid', key: 'fieldTypes' }],
    [
      'a definition that is not an object',
      { fieldTypes: { stamp: 'x' as never } },
      { code: 'field_type_value_invalid', key: 'fieldTypes.stamp' },
    ],
  ])('refuses %s', (_name, patch, refusal) => {
    expectRefusal(() => register(labPlugin({ controllers: [], ...patch })), refusal);
  });

  it('refuses an alias another plugin registered, naming that plugin', () => {
    const other = definePlugin({
      vendor: 'zed',
      name: 'kit',
      assets: { 'z.js': LAB_ASSETS['stamp.js'] },
      fieldTypes: { stamp: { ...stampType, element: 'zed-stamp', assets: { scripts: ['z.js'] } } },
    });
    expectConfigError(() => register(labPlugin({ controllers: [] }), other), 'field_type_alias_taken', {
      plugin: 'zed.kit',
      key: 'fieldTypes.stamp',
    });
  });

  it.each<[string, Record<string, unknown>, Refusal]>([
    ['an unknown key', { label: 'Stamp' }, { code: 'field_type_key_unknown', key: 'fieldTypes.stamp.label' }],
    [
      'an element that is no custom element name',
      { element: 'stamp' },
      { code: 'field_type_element_invalid', key: 'fieldTypes.stamp.element' },
    ],
    ['an element with capitals', { element: 'tfx-Stamp' }, { code: 'field_type_element_invalid', key: 'fieldTypes.stamp.element' }],
    ['a reserved element name', { element: 'font-face' }, { code: 'field_type_element_invalid', key: 'fieldTypes.stamp.element' }],
    ['an element of another vendor', { element: 'acme-stamp' }, { code: 'field_type_element_invalid', key: 'fieldTypes.stamp.element' }],
    ['the bare prefix', { element: 'tfx-' }, { code: 'field_type_element_invalid', key: 'fieldTypes.stamp.element' }],
    ['the element of another type', { element: 'tfx-motto' }, { code: 'field_type_element_taken', key: 'fieldTypes.motto.element' }],
    [
      'translatable that is not a boolean',
      { translatable: 'yes' },
      { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.translatable' },
    ],
    ['a missing decode', { decode: undefined }, { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.decode' }],
    ['a decode that is not a function', { decode: 'x' }, { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.decode' }],
    ['an encode that is not a function', { encode: {} }, { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.encode' }],
    ['options that are not an object', { options: ['maxLength'] }, { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.options' }],
    [
      'an option key that is not a name',
      { options: { 'max-length': { check: () => true } } },
      { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.options.max-length' },
    ],
    [
      'an option without check',
      { options: { maxLength: { hint: 'x' } } },
      { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.options.maxLength.check' },
    ],
    [
      'an option with an unknown key',
      { options: { maxLength: { check: () => true, default: 3 } } },
      { code: 'field_type_key_unknown', key: 'fieldTypes.stamp.options.maxLength.default' },
    ],
    ['missing assets', { assets: undefined }, { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.assets' }],
    [
      'an unknown assets key',
      { assets: { scripts: ['stamp.js'], images: [] } },
      { code: 'field_type_key_unknown', key: 'fieldTypes.stamp.assets.images' },
    ],
    [
      'a script that is not a registered asset',
      { assets: { scripts: ['missing.js'] } },
      { code: 'field_type_asset_unknown', key: 'fieldTypes.stamp.assets.scripts' },
    ],
    [
      'a style that is not a registered asset',
      { assets: { scripts: ['stamp.js'], styles: ['missing.css'] } },
      { code: 'field_type_asset_unknown', key: 'fieldTypes.stamp.assets.styles' },
    ],
    [
      'a stylesheet listed as script',
      { assets: { scripts: ['lab.css'] } },
      { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.assets.scripts' },
    ],
    [
      'a script listed as style',
      { assets: { scripts: ['stamp.js'], styles: ['stamp.js'] } },
      { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.assets.styles' },
    ],
    [
      'a file listed twice',
      { assets: { scripts: ['stamp.js', 'stamp.js'] } },
      { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.assets.scripts' },
    ],
    ['no script at all', { assets: { styles: ['lab.css'] } }, { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.assets.scripts' }],
    [
      'columnTypes that are not a list',
      { columnTypes: 'varchar' },
      { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.columnTypes' },
    ],
    [
      'columnTypes on a translatable type',
      { translatable: true, columnTypes: ['jsonb'] },
      { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.columnTypes' },
    ],
    ['an upload that is not an object', { upload: true }, { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.upload' }],
    [
      'an upload without maxBytes',
      { upload: { handle: noop } },
      { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.upload.maxBytes' },
    ],
    [
      'an upload limit above 50 MiB',
      { upload: { maxBytes: 50 * 1024 * 1024 + 1, handle: noop } },
      { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.upload.maxBytes' },
    ],
    [
      'upload extensions with a dot',
      { upload: { maxBytes: 10, accept: ['.txt'], handle: noop } },
      { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.upload.accept' },
    ],
    [
      'an upload without handler',
      { upload: { maxBytes: 10 } },
      { code: 'field_type_value_invalid', key: 'fieldTypes.stamp.upload.handle' },
    ],
    [
      'an unknown upload key',
      { upload: { maxBytes: 10, handle: noop, path: '/tmp' } },
      { code: 'field_type_key_unknown', key: 'fieldTypes.stamp.upload.path' },
    ],
  ])('refuses a type with %s', (_name, patch, refusal) => {
    expectRefusal(() => register(withStamp(patch)), refusal);
  });

  it('refuses assets named by a type when the plugin registers none', () => {
    expectRefusal(() => register(labPlugin({ controllers: [], assets: undefined })), {
      code: 'field_type_asset_unknown',
      key: 'fieldTypes.stamp.assets.scripts',
    });
  });

  it('a refusal reaches the host through createAdmin, before any controller is resolved', async () => {
    await expectConfigError(
      () => startTestAdmin({ adapter: 'node', plugins: [withStamp({ element: 'acme-stamp' })] }),
      'field_type_element_invalid',
      { plugin: 'tfx.lab', key: 'fieldTypes.stamp.element' },
    );
  });

  it('tells built-in types from plugin aliases (settings forms refuse the latter)', () => {
    expect(BUILTIN_FIELD_TYPE_NAMES).toContain('richeditor');
    expect(BUILTIN_FIELD_TYPE_NAMES).not.toContain('color');
    expect(isPluginFieldType('text')).toBe(false);
    expect(isPluginFieldType('color')).toBe(true);
    expect(isPluginFieldType(pluginFieldTypeOf(register(labPlugin({ controllers: [] })).fieldTypes.get('stamp'))!)).toBe(true);
  });
});

describe('fields of a plugin type are checked at start-up', () => {
  const types: ReadonlyMap<string, FieldType> = new Map([...BUILTIN_FIELD_TYPES, ...register(labPlugin({ controllers: [] })).fieldTypes]);
  const varchar: PropertyInfo = {
    name: 'stamp',
    type: 'string',
    columnTypes: ['varchar(20)'],
    nullable: true,
    kind: 'scalar',
    runtimeType: 'string',
  };
  const jsonb: PropertyInfo = {
    name: 'motto',
    type: 'json',
    columnTypes: ['jsonb'],
    nullable: true,
    kind: 'scalar',
    runtimeType: 'object',
  };
  const check = (field: Record<string, unknown>, property: PropertyInfo = varchar) => {
    const ctx: FieldCheckContext = {
      plugin: 'tfx.lab',
      controller: 'tfx/lab/items',
      field: 'f',
      property,
      permissionCodes: new Set(),
      locales: ['en', 'de'],
    };
    return checkField(field as unknown as FieldConfig, ctx, types);
  };

  it("accepts declared options with valid values, and the type's own element and translatable", () => {
    expect(check({ type: 'stamp', typeOptions: { maxLength: 5 }, element: 'tfx-stamp', translatable: false }).name).toBe('stamp');
    expect(check({ type: 'motto', translatable: true }, jsonb).name).toBe('motto');
  });

  it.each<[string, Record<string, unknown>, PropertyInfo, Refusal]>([
    [
      'an option the type does not declare',
      { type: 'stamp', typeOptions: { palette: [] } },
      varchar,
      { code: 'field_key_unknown', key: 'form.fields.f.typeOptions.palette' },
    ],
    [
      'an option of a type that has none',
      { type: 'motto', typeOptions: { x: 1 } },
      jsonb,
      { code: 'field_key_unknown', key: 'form.fields.f.typeOptions.x' },
    ],
    [
      'an option value its check refuses',
      { type: 'stamp', typeOptions: { maxLength: 0 } },
      varchar,
      { code: 'field_option_invalid', key: 'form.fields.f.typeOptions.maxLength' },
    ],
    [
      'an option value that is not JSON data',
      { type: 'stamp', typeOptions: { maxLength: () => 3 } },
      varchar,
      { code: 'field_option_invalid', key: 'form.fields.f.typeOptions.maxLength' },
    ],
    [
      'typeOptions that are not an object',
      { type: 'stamp', typeOptions: [1] },
      varchar,
      { code: 'field_option_invalid', key: 'form.fields.f.typeOptions' },
    ],
    [
      "another element than the type's",
      { type: 'stamp', element: 'tfx-other' },
      varchar,
      { code: 'field_option_invalid', key: 'form.fields.f.element' },
    ],
    [
      'translatable on a type that is not',
      { type: 'stamp', translatable: true },
      varchar,
      { code: 'field_option_invalid', key: 'form.fields.f.translatable' },
    ],
    ['a column type the type does not accept', { type: 'stamp' }, jsonb, { code: 'field_column_mismatch', key: 'form.fields.f' }],
    ['a translatable type on a varchar column', { type: 'motto' }, varchar, { code: 'field_column_mismatch', key: 'form.fields.f' }],
    [
      'a scalar default on a translatable type',
      { type: 'motto', default: 'x' },
      jsonb,
      { code: 'field_option_invalid', key: 'form.fields.f.default' },
    ],
    [
      'plugin keys on a built-in type',
      { type: 'text', typeOptions: {} },
      varchar,
      { code: 'field_key_unknown', key: 'form.fields.f.typeOptions' },
    ],
  ])('refuses %s', (_name, field, property, refusal) => {
    expectRefusal(() => check(field, property), refusal);
  });

  it('is what resolves a controller: a bad option fails createAdmin', async () => {
    const bad = labPlugin({
      controllers: [
        {
          name: 'items',
          entity: (await import('../fixtures/field-types.ts')).LabItem,
          form: { fields: { name: { type: 'text' }, stamp: { type: 'stamp', typeOptions: { color: 'red' } } } },
        },
      ],
    });
    await expectConfigError(() => startTestAdmin({ adapter: 'node', plugins: [bad] }), 'field_key_unknown', {
      plugin: 'tfx.lab',
      controller: 'tfx/lab/items',
      key: 'form.fields.stamp.typeOptions.color',
    });
  });

  it('motto and stamp keep their definitions frozen', () => {
    expect(Object.isFrozen(types.get('stamp'))).toBe(true);
    expect(mottoType.translatable).toBe(true);
  });
});
