import { describe, expect, it } from 'vitest';
import { ConfigError, definePlugin, type PluginDefinition, type PluginFieldTypeDefinition } from '@cms/admin-core';
import { registerPlugins } from '../../src/core.ts';
import { BUILTIN_FIELD_TYPE_NAMES, isPluginFieldType } from '../../src/fields/config.ts';
import { pluginFieldTypeOf } from '../../src/fields/plugin/field-type.ts';
import { BUILTIN_FIELD_TYPES } from '../../src/fields/registry.ts';
import { checkField } from '../../src/fields/config.ts';
import type { FieldCheckContext, FieldConfig, FieldType, PropertyInfo } from '../../src/fields/types.ts';
import { startTestAdmin } from '../../../../test/support/app.ts';
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
const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('no ConfigError was thrown');
};

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

  it.each([
    [
      'an alias that is not lower case',
      { fieldTypes: { Stamp: stampType } },
      /plugin "tfx\.lab", key "fieldTypes\.Stamp": not a valid field type alias/,
    ],
    ['an alias with an underscore', { fieldTypes: { my_stamp: stampType } }, /key "fieldTypes\.my_stamp": not a valid field type alias/],
    ['the alias of a built-in type', { fieldTypes: { text: stampType } }, /key "fieldTypes\.text": "text" is a built-in field type/],
    ['fieldTypes that is not an object', { fieldTypes: [] as never }, /key "fieldTypes": must be an object of alias to field type/],
    ['a definition that is not an object', { fieldTypes: { stamp: 'x' as never } }, /key "fieldTypes\.stamp": must be an object/],
  ])('refuses %s', (_name, patch, pattern) => {
    expect(refusal(() => register(labPlugin({ controllers: [], ...patch })))).toMatch(pattern);
  });

  it('refuses an alias another plugin registered, naming that plugin', () => {
    const other = definePlugin({
      vendor: 'zed',
      name: 'kit',
      assets: { 'z.js': LAB_ASSETS['stamp.js'] },
      fieldTypes: { stamp: { ...stampType, element: 'zed-stamp', assets: { scripts: ['z.js'] } } },
    });
    expect(refusal(() => register(labPlugin({ controllers: [] }), other))).toMatch(
      /plugin "zed\.kit", key "fieldTypes\.stamp": the alias "stamp" is already registered by plugin "tfx\.lab"/,
    );
  });

  it.each([
    ['an unknown key', { label: 'Stamp' }, /key "fieldTypes\.stamp\.label": unknown key/],
    [
      'an element that is no custom element name',
      { element: 'stamp' },
      /key "fieldTypes\.stamp\.element": "stamp" is not a custom element name/,
    ],
    ['an element with capitals', { element: 'tfx-Stamp' }, /key "fieldTypes\.stamp\.element": "tfx-Stamp" is not a custom element name/],
    ['a reserved element name', { element: 'font-face' }, /key "fieldTypes\.stamp\.element": "font-face" is not a custom element name/],
    [
      'an element of another vendor',
      { element: 'acme-stamp' },
      /key "fieldTypes\.stamp\.element": "acme-stamp" does not start with the plugin's element prefix "tfx-"/,
    ],
    ['the bare prefix', { element: 'tfx-' }, /does not start with the plugin's element prefix "tfx-"/],
    [
      'the element of another type',
      { element: 'tfx-motto' },
      /key "fieldTypes\.motto\.element": "tfx-motto" is already the element of the stamp type/,
    ],
    ['translatable that is not a boolean', { translatable: 'yes' }, /key "fieldTypes\.stamp\.translatable": must be true or false/],
    ['a missing decode', { decode: undefined }, /key "fieldTypes\.stamp\.decode": is missing/],
    ['a decode that is not a function', { decode: 'x' }, /key "fieldTypes\.stamp\.decode": must be a function/],
    ['an encode that is not a function', { encode: {} }, /key "fieldTypes\.stamp\.encode": must be a function/],
    ['options that are not an object', { options: ['maxLength'] }, /key "fieldTypes\.stamp\.options": must be an object/],
    [
      'an option key that is not a name',
      { options: { 'max-length': { check: () => true } } },
      /key "fieldTypes\.stamp\.options\.max-length": not a valid option key/,
    ],
    [
      'an option without check',
      { options: { maxLength: { hint: 'x' } } },
      /key "fieldTypes\.stamp\.options\.maxLength\.check": must be a function/,
    ],
    [
      'an option with an unknown key',
      { options: { maxLength: { check: () => true, default: 3 } } },
      /key "fieldTypes\.stamp\.options\.maxLength\.default": unknown key/,
    ],
    ['missing assets', { assets: undefined }, /key "fieldTypes\.stamp\.assets": is missing or not an object/],
    ['an unknown assets key', { assets: { scripts: ['stamp.js'], images: [] } }, /key "fieldTypes\.stamp\.assets\.images": unknown key/],
    [
      'a script that is not a registered asset',
      { assets: { scripts: ['missing.js'] } },
      /key "fieldTypes\.stamp\.assets\.scripts": "missing\.js" is not one of the plugin's assets/,
    ],
    [
      'a style that is not a registered asset',
      { assets: { scripts: ['stamp.js'], styles: ['missing.css'] } },
      /key "fieldTypes\.stamp\.assets\.styles": "missing\.css" is not one of the plugin's assets/,
    ],
    ['a stylesheet listed as script', { assets: { scripts: ['lab.css'] } }, /"lab\.css" is not a script/],
    ['a script listed as style', { assets: { scripts: ['stamp.js'], styles: ['stamp.js'] } }, /"stamp\.js" is not a stylesheet/],
    [
      'a file listed twice',
      { assets: { scripts: ['stamp.js', 'stamp.js'] } },
      /key "fieldTypes\.stamp\.assets\.scripts": names a file twice/,
    ],
    ['no script at all', { assets: { styles: ['lab.css'] } }, /key "fieldTypes\.stamp\.assets\.scripts": names no script/],
    ['columnTypes that are not a list', { columnTypes: 'varchar' }, /key "fieldTypes\.stamp\.columnTypes": must be a non-empty list/],
    [
      'columnTypes on a translatable type',
      { translatable: true, columnTypes: ['jsonb'] },
      /key "fieldTypes\.stamp\.columnTypes": a translatable type is always stored in a json or jsonb column/,
    ],
    ['an upload that is not an object', { upload: true }, /key "fieldTypes\.stamp\.upload": must be/],
    [
      'an upload without maxBytes',
      { upload: { handle: noop } },
      /key "fieldTypes\.stamp\.upload\.maxBytes": must be a whole number of bytes from 1 to 52428800/,
    ],
    [
      'an upload limit above 50 MiB',
      { upload: { maxBytes: 50 * 1024 * 1024 + 1, handle: noop } },
      /key "fieldTypes\.stamp\.upload\.maxBytes"/,
    ],
    [
      'upload extensions with a dot',
      { upload: { maxBytes: 10, accept: ['.txt'], handle: noop } },
      /key "fieldTypes\.stamp\.upload\.accept": must be a non-empty list of lower-case extensions/,
    ],
    ['an upload without handler', { upload: { maxBytes: 10 } }, /key "fieldTypes\.stamp\.upload\.handle": must be a function/],
    [
      'an unknown upload key',
      { upload: { maxBytes: 10, handle: noop, path: '/tmp' } },
      /key "fieldTypes\.stamp\.upload\.path": unknown key/,
    ],
  ])('refuses a type with %s', (_name, patch, pattern) => {
    expect(refusal(() => register(withStamp(patch)))).toMatch(pattern);
  });

  it('refuses assets named by a type when the plugin registers none', () => {
    expect(refusal(() => register(labPlugin({ controllers: [], assets: undefined })))).toMatch(
      /key "fieldTypes\.stamp\.assets\.scripts": "stamp\.js" is not one of the plugin's assets/,
    );
  });

  it('a refusal reaches the host through createAdmin, before any controller is resolved', async () => {
    await expect(startTestAdmin({ adapter: 'node', plugins: [withStamp({ element: 'acme-stamp' })] })).rejects.toThrow(
      /plugin "tfx\.lab", key "fieldTypes\.stamp\.element"/,
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

  it.each([
    [
      'an option the type does not declare',
      { type: 'stamp', typeOptions: { palette: [] } },
      varchar,
      /key "form\.fields\.f\.typeOptions\.palette": the stamp type has no option "palette"\. Use one of maxLength\./,
    ],
    [
      'an option of a type that has none',
      { type: 'motto', typeOptions: { x: 1 } },
      jsonb,
      /key "form\.fields\.f\.typeOptions\.x": the motto type has no option "x"\. The motto type takes no options/,
    ],
    [
      'an option value its check refuses',
      { type: 'stamp', typeOptions: { maxLength: 0 } },
      varchar,
      /key "form\.fields\.f\.typeOptions\.maxLength": must be a whole number above 0\. For example `maxLength: 12`\./,
    ],
    [
      'an option value that is not JSON data',
      { type: 'stamp', typeOptions: { maxLength: () => 3 } },
      varchar,
      /key "form\.fields\.f\.typeOptions\.maxLength": must be plain JSON data/,
    ],
    [
      'typeOptions that are not an object',
      { type: 'stamp', typeOptions: [1] },
      varchar,
      /key "form\.fields\.f\.typeOptions": must be an object/,
    ],
    [
      "another element than the type's",
      { type: 'stamp', element: 'tfx-other' },
      varchar,
      /key "form\.fields\.f\.element": the stamp type renders "tfx-stamp"/,
    ],
    [
      'translatable on a type that is not',
      { type: 'stamp', translatable: true },
      varchar,
      /key "form\.fields\.f\.translatable": the stamp type is not translatable/,
    ],
    [
      'a column type the type does not accept',
      { type: 'stamp' },
      jsonb,
      /key "form\.fields\.f": a stamp field is stored in a varchar column, but "motto" is a jsonb column/,
    ],
    [
      'a translatable type on a varchar column',
      { type: 'motto' },
      varchar,
      /a motto field is stored in a json or jsonb column, but "stamp" is a varchar column/,
    ],
    [
      'a scalar default on a translatable type',
      { type: 'motto', default: 'x' },
      jsonb,
      /key "form\.fields\.f\.default": a motto field is an object of locale to value/,
    ],
    [
      'plugin keys on a built-in type',
      { type: 'text', typeOptions: {} },
      varchar,
      /key "form\.fields\.f\.typeOptions": unknown key "typeOptions" for a text field/,
    ],
  ])('refuses %s', (_name, field, property, pattern) => {
    expect(refusal(() => check(field, property))).toMatch(pattern);
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
    await expect(startTestAdmin({ adapter: 'node', plugins: [bad] })).rejects.toThrow(
      /plugin "tfx\.lab", controller "tfx\/lab\/items", key "form\.fields\.stamp\.typeOptions\.color": the stamp type has no option "color"/,
    );
  });

  it('motto and stamp keep their definitions frozen', () => {
    expect(Object.isFrozen(types.get('stamp'))).toBe(true);
    expect(mottoType.translatable).toBe(true);
  });
});
