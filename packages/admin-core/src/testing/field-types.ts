import { readFile } from 'node:fs/promises';
import { defineEntity, p, type MigrationObject } from '@mikro-orm/core';
import { defineController, definePlugin, definePluginFieldType, FieldError, Migration, NotFound, type PluginDefinition } from '../index.ts';

/*
 * `tfx/lab`: a test plugin with two field types of its own.
 * - `stamp`: a varchar value, trimmed and lower-cased (a notice when that changed it); a
 *   `maxLength` option; special values that throw a plain error (after writing a log row), an
 *   AdminError, or a 403 FieldError; an upload handler for `.txt` files of at most 1 KiB.
 * - `motto`: translatable, each locale's text trimmed (a notice names the locale).
 * Every decode call is recorded in `calls`, so tests can count them.
 */

export const calls: Array<{ type: string; value: unknown; locale: string; mode: string }> = [];

export const LabItem = defineEntity({
  name: 'TfxLabItem',
  tableName: 'tfx_lab_items',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(100),
    stamp: p.string().length(20).nullable(),
    code: p.string().length(20).nullable(),
    motto: p.json<Record<string, string | null>>().nullable(),
  },
});

class LabInit extends Migration {
  override up(): void {
    this.addSql(
      `create table tfx_lab_items (id serial primary key, name varchar(100) not null, stamp varchar(20) null, code varchar(20) null, motto jsonb null)`,
    );
    this.addSql(`create table tfx_lab_log (id serial primary key, note text not null)`);
  }
}

const logWrite = (em: { execute(sql: string, params: unknown[]): Promise<unknown> }, note: string) =>
  em.execute('insert into tfx_lab_log (note) values (?)', [note]);

export const stampType = definePluginFieldType({
  element: 'tfx-stamp',
  assets: { scripts: ['stamp.js'], styles: ['lab.css'] },
  columnTypes: ['varchar'],
  options: {
    maxLength: {
      check: (v) => (Number.isSafeInteger(v) && (v as number) > 0) || 'must be a whole number above 0',
      hint: 'For example `maxLength: 12`.',
    },
  },
  async decode(value, ctx) {
    calls.push({ type: 'stamp', value, locale: ctx.locale, mode: ctx.mode });
    if (typeof value !== 'string') throw new FieldError('stamp.invalid', 'tfx.lab::stamp.invalid');
    if (value === 'boom') {
      await logWrite(ctx.em, 'decode');
      throw new Error('the stamp machine broke');
    }
    if (value === 'log-me') {
      await logWrite(ctx.em, 'decode');
      return 'logged';
    }
    if (value === 'not-found') throw NotFound();
    if (value === 'forbid') throw new FieldError('stamp.locked', 'tfx.lab::stamp.locked', {}, 'forbidden');
    if (value === 'undefined') return undefined;
    const stamp = value.trim().toLowerCase();
    const max = ctx.options.maxLength as number | undefined;
    if (max !== undefined && stamp.length > max) throw new FieldError('stamp.too_long', 'tfx.lab::stamp.too_long', { max });
    if (stamp !== value) ctx.notice('tfx.lab::stamp.normalised', { stamp });
    return stamp;
  },
  encode: (value) => String(value),
  // The codes of the FieldErrors above, for the 422 of the OpenAPI document (docs/field-types.md, "Declaring one").
  errorCodes: ['stamp.invalid', 'stamp.too_long', 'stamp.locked', 'stamp.bad_file'],
  upload: {
    maxBytes: 1024,
    accept: ['txt'],
    async handle(file, ctx) {
      const text = (await readFile(file.path, 'utf8')).trim();
      if (text === 'bad') throw new FieldError('stamp.bad_file', 'tfx.lab::stamp.bad_file');
      if (text === 'boom') {
        await logWrite(ctx.em, 'upload');
        await ctx.storage.put('tfx/boom.txt', Buffer.from(text), 'text/plain');
        throw new Error('the upload machine broke');
      }
      if (text === 'function') {
        await logWrite(ctx.em, 'upload');
        await ctx.storage.put('tfx/function.txt', Buffer.from(text), 'text/plain');
        return { fn: () => 1 };
      }
      if (text === 'log') {
        await logWrite(ctx.em, 'upload');
        await ctx.storage.put('tfx/log.txt', Buffer.from(text), 'text/plain');
        return { logged: true };
      }
      return { text, size: file.size, extension: file.extension, record: ctx.record.id, field: ctx.field, options: ctx.options };
    },
  },
});

export const mottoType = definePluginFieldType({
  element: 'tfx-motto',
  translatable: true,
  assets: { scripts: ['motto.js', 'stamp.js'], styles: ['lab.css'] },
  decode(value, ctx) {
    calls.push({ type: 'motto', value, locale: ctx.locale, mode: ctx.mode });
    if (typeof value !== 'string') throw new FieldError('motto.invalid', 'tfx.lab::motto.invalid');
    const text = value.trim();
    if (text !== value) ctx.notice('tfx.lab::motto.trimmed');
    return text;
  },
  errorCodes: ['motto.invalid'],
});

const asset = (file: string) => new URL(`./assets/${file}`, import.meta.url);
export const LAB_ASSETS = { 'stamp.js': asset('stamp.js'), 'motto.js': asset('motto.js'), 'lab.css': asset('lab.css') };

export const LAB_MANAGE = 'tfx.lab.manage';
export const ITEMS = 'tfx/lab/items';

export const itemsController = defineController({
  name: 'items',
  entity: LabItem,
  permissions: [LAB_MANAGE],
  list: { columns: { name: { label: 'Name' } } },
  // Items named "hidden…" are out of the form scope.
  scopes: { form: () => ({ $not: { name: { $like: 'hidden%' } } }) },
  form: {
    fields: {
      name: { type: 'text', label: 'Name', required: true },
      stamp: { type: 'stamp', label: 'Stamp', typeOptions: { maxLength: 12 } },
      motto: { type: 'motto', label: 'Motto' },
      code: { type: 'stamp', label: 'Code', readOnly: true },
    },
  },
});

const strings = {
  en: {
    'stamp.invalid': 'A stamp is a text.',
    'stamp.too_long': 'A stamp has at most {max} characters.',
    'stamp.locked': 'This stamp is locked.',
    'stamp.normalised': 'The stamp was saved as "{stamp}".',
    'stamp.bad_file': 'This file holds no stamp.',
    'motto.invalid': 'A motto is a text.',
    'motto.trimmed': 'Spaces around the motto were removed.',
  },
  de: {
    'stamp.invalid': 'Ein Stempel ist ein Text.',
    'stamp.too_long': 'Ein Stempel hat höchstens {max} Zeichen.',
    'stamp.locked': 'Dieser Stempel ist gesperrt.',
    'stamp.normalised': 'Der Stempel wurde als „{stamp}“ gespeichert.',
    'stamp.bad_file': 'Diese Datei enthält keinen Stempel.',
    'motto.invalid': 'Ein Motto ist ein Text.',
    'motto.trimmed': 'Leerzeichen um das Motto wurden entfernt.',
  },
};

/** The lab plugin; `patch` replaces top-level keys (start-up refusal tests). */
export function labPlugin(patch: Partial<PluginDefinition> = {}): PluginDefinition {
  return definePlugin({
    vendor: 'tfx',
    name: 'lab',
    permissions: [{ code: LAB_MANAGE, label: 'Manage the lab' }],
    entities: [LabItem],
    migrations: [{ name: 'tfx.lab/0001-init', class: LabInit }] as MigrationObject[],
    controllers: [itemsController],
    assets: LAB_ASSETS,
    fieldTypes: { stamp: stampType, motto: mottoType },
    strings,
    ...patch,
  });
}
