import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILTIN_FIELD_TYPES, checkField, checkFieldConfig, type FieldConfig, type FieldType } from '../../src/fields/index.ts';
import { coreStrings } from '../../src/i18n/core-strings.ts';
import { fieldTypeStrings } from '../../src/fields/plugin/strings.ts';
import { checkContext } from './support.ts';

const message = (run: () => unknown): string | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};
const general = (field: Record<string, unknown>, type?: FieldType) =>
  message(() => checkFieldConfig({ type: 'text', ...field } as FieldConfig, checkContext({ field: 'title' }), type));

describe('the registry', () => {
  it('holds exactly the built-in types of docs/field-types.md', () => {
    expect([...BUILTIN_FIELD_TYPES.keys()].sort()).toEqual(
      [
        'datepicker',
        'dropdown',
        'fileupload',
        'markdown',
        'mltext',
        'money',
        'number',
        'partial',
        'password',
        'permissioneditor',
        'relation',
        'relation-manager',
        'richeditor',
        'taglist',
        'text',
        'textarea',
        'widget',
      ].sort(),
    );
    for (const [name, type] of BUILTIN_FIELD_TYPES) {
      expect(type.name).toBe(name);
      expect(Object.isFrozen(type)).toBe(true);
    }
  });

  it('stores by the right kind', () => {
    const storage = Object.fromEntries([...BUILTIN_FIELD_TYPES].map(([name, type]) => [name, type.storage]));
    expect(storage).toMatchObject({
      password: 'virtual',
      relation: 'relation',
      partial: 'none',
      widget: 'none',
      'relation-manager': 'none',
      fileupload: 'none',
      money: 'column',
    });
  });
});

describe('checkFieldConfig (general keys)', () => {
  it('accepts a plain field', () => {
    expect(
      general({
        label: 'Title',
        comment: 'x',
        tab: 'Main',
        span: 'left',
        required: true,
        context: ['create', 'update'],
        default: '',
        attributes: { maxlength: 100 },
      }),
    ).toBeUndefined();
  });

  it('refuses unknown keys, listing the allowed ones', () => {
    const m = general({ lable: 'Title' });
    expect(m).toContain('plugin "acme.catalog"');
    expect(m).toContain('controller "acme/catalog/products"');
    expect(m).toContain('key "form.fields.title.lable"');
    expect(m).toMatch(/unknown key "lable" for a text field.*Allowed keys: type, label, .*preset/);
  });

  it('refuses keys of other types (scale on text, preset on textarea)', () => {
    expect(general({ scale: 2 })).toMatch(/unknown key "scale"/);
    expect(general({ type: 'textarea', preset: { field: 'name', type: 'slug' } })).toMatch(/unknown key "preset" for a textarea/);
    expect(general({ type: 'money', currency: 'EUR', scale: 2 })).toBeUndefined();
  });

  it('checks the shapes of general keys', () => {
    expect(general({ span: 'middle' })).toMatch(/form\.fields\.title\.span.*"auto", "left", "right", "full", "row"/);
    expect(general({ context: 3 })).toMatch(/form\.fields\.title\.context/);
    expect(general({ context: [] })).toMatch(/context/);
    expect(general({ context: 'update' })).toBeUndefined();
    expect(general({ default: { a: 1 } })).toMatch(/form\.fields\.title\.default.*scalar/);
    expect(general({ default: null })).toBeUndefined();
    expect(general({ attributes: { a: [1] } })).toMatch(/attributes.*scalar/);
    expect(general({ required: 'yes' })).toMatch(/form\.fields\.title\.required.*true or false/);
    expect(general({ label: 3 })).toMatch(/form\.fields\.title\.label/);
    expect(general({ type: 'dropdown', options: { a: 1 } })).toMatch(/form\.fields\.title\.options.*value to label/);
  });

  it('checks preset: {field, type slug|exact}, another existing field', () => {
    expect(general({ preset: { field: 'name', type: 'slug' } })).toBeUndefined();
    expect(general({ type: 'mltext', preset: { field: 'name', type: 'exact' } })).toBeUndefined();
    expect(general({ preset: { field: 'name', type: 'kebab' } })).toMatch(/form\.fields\.title\.preset\.type/);
    expect(general({ preset: { field: 'title', type: 'slug' } })).toMatch(/preset\.field.*another field/);
    expect(general({ preset: 'name' })).toMatch(/must be `\{ field, type \}`/);
    expect(
      message(() =>
        checkFieldConfig(
          { type: 'text', preset: { field: 'nope', type: 'slug' } },
          checkContext({ field: 'slug', fields: { slug: { type: 'text' } } }),
        ),
      ),
    ).toMatch(/the form has no field "nope"/);
  });

  it('gives a plugin type typeOptions, element and translatable', () => {
    const color: FieldType = { name: 'color', storage: 'column', decode: (v) => v, encode: (v) => v };
    expect(general({ type: 'color', typeOptions: { palette: [] }, element: 'acme-color', translatable: false }, color)).toBeUndefined();
    expect(general({ type: 'color', element: 'color' }, color)).toMatch(/form\.fields\.title\.element.*custom element/);
    expect(general({ type: 'color', options: {} }, color)).toMatch(/unknown key "options"/);
  });
});

describe('checkField', () => {
  it('resolves the type, then runs the general and the type check', () => {
    expect(checkField({ type: 'money', currency: 'EUR' }, checkContext())).toBe(BUILTIN_FIELD_TYPES.get('money'));
    expect(message(() => checkField({ type: 'money' }, checkContext()))).toMatch(/needs a currency/);
    expect(message(() => checkField({ type: 'money', currency: 'EUR', colour: 'x' } as FieldConfig, checkContext()))).toMatch(
      /unknown key "colour"/,
    );
    expect(message(() => checkField({ type: 'repeater' }, checkContext()))).toMatch(
      /form\.fields\.price\.type.*unknown field type "repeater".*Use one of text, mltext/,
    );
    expect(message(() => checkField({ type: 'password' }, checkContext()))).toMatch(/must be virtual/);
  });
});

describe('strings', () => {
  it('every backend:: key the field types use exists in en and de', () => {
    const dir = new URL('../../src/fields/', import.meta.url);
    const keys = new Set<string>();
    // Sub-folders too (`plugin/`): its keys live in the plugin field types' own table.
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'))) {
      for (const match of readFileSync(new URL(file, dir), 'utf8').matchAll(/'backend::([a-z_.]+)'/g)) keys.add(match[1]!);
    }
    for (const code of ['money.invalid', 'money.too_precise', 'money.too_large']) keys.add(`fields.${code}`);
    expect(keys.size).toBeGreaterThan(20);
    for (const locale of ['en', 'de'] as const) {
      const table = { ...coreStrings[locale], ...fieldTypeStrings[locale] };
      for (const key of keys) expect(table, `${locale} ${key}`).toHaveProperty([key]);
    }
  });
});
