import { defineEntity, p } from '@mikro-orm/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineController, NO_ROWS, type FieldConfig, type ListColumnConfig } from '../../src/index.ts';
import type { EntityKey } from '../../src/controllers/types.ts';

/*
 * Type tests (docs/controllers.md, "Typed keys"): `pnpm typecheck` compiles this file, so every
 * `@ts-expect-error` below must meet an error on the next line, and the valid declarations must
 * compile. The runtime part only shows that `defineController` returns its input.
 */

const Venue = defineEntity({
  name: 'TypesVenue',
  properties: { id: p.integer().primary(), name: p.string(), city: p.string() },
});
const Tag = defineEntity({ name: 'TypesTag', properties: { id: p.integer().primary(), label: p.string() } });
const Event = defineEntity({
  name: 'TypesEvent',
  properties: {
    id: p.integer().primary(),
    title: p.string(),
    slug: p.string(),
    status: p.string(),
    capacity: p.integer(),
    price: p.decimal('string').nullable(),
    featured: p.boolean().default(false),
    starts_at: p.datetime(),
    ends_at: p.datetime(),
    sort_order: p.integer().default(0),
    deleted_at: p.datetime().nullable(),
    venue: () => p.manyToOne(Venue).nullable(),
    tags: () => p.manyToMany(Tag),
  },
});

describe('typed keys of a controller', () => {
  it('a valid controller compiles, with every property-naming key and field type', () => {
    const config = defineController({
      name: 'events',
      entity: Event,
      softDelete: 'deleted_at',
      scopes: { list: ({ principal }) => (principal.admin.isSuperuser ? undefined : { status: 'published' }), form: { deleted_at: null } },
      list: {
        columns: {
          title: { label: 'Title', searchable: true, sortable: true },
          starts_at: { label: 'Starts', type: 'datetime', sortable: true },
          venue: { label: 'Venue', relation: 'venue', select: 'city' },
          tags: { label: 'Tags', relation: 'tags', select: 'label' },
        },
        defaultSort: { column: 'starts_at', direction: 'desc' },
        recordsPerPage: 30,
        filters: {
          status: { type: 'group', label: 'Status', column: 'status', options: { draft: 'Draft' } },
          starts: { type: 'daterange', label: 'Starts', column: 'starts_at' },
          venue: { type: 'scope', label: 'Venue', scope: (value) => (value ? { venue: Number(value) } : NO_ROWS) },
        },
        rowStateColumns: ['deleted_at'],
      },
      form: {
        fields: {
          title: { type: 'text', label: 'Title', required: true },
          slug: { type: 'text', preset: { field: 'title', type: 'slug' } },
          capacity: { type: 'number', min: 1, max: 500, step: 1 },
          price: { type: 'money', currency: 'EUR', scale: 2, min: null, max: '1000' },
          status: { type: 'dropdown', options: { draft: 'Draft', published: 'Published' }, default: 'draft' },
          starts_at: { type: 'datepicker', mode: 'datetime' },
          ends_at: { type: 'datepicker', mode: 'datetime', after: 'starts_at' },
          venue: { type: 'relation', nameFrom: 'name', emptyOption: 'None' },
          tags: { type: 'relation-manager', relation: 'tags' },
          featured: { type: 'switch', label: 'Featured' },
          // A plugin field type: its own keys are `typeOptions`, `element`, `translatable`.
          color: { type: 'acme-color', typeOptions: { palette: ['#000000'] }, virtual: true },
          summary: { type: 'partial', path: 'summary' },
        },
      },
      relations: {
        tags: {
          view: { list: { columns: { label: { label: 'Label', sortable: true } }, defaultSort: { column: 'label', direction: 'asc' } } },
        },
      },
      reorder: { sortColumn: 'sort_order', nameFrom: 'title' },
    });
    expect(config.name).toBe('events');
  });

  it('names the properties of the entity', () => {
    type E = { id: number; title: string; venue: { id: number; city: string } };
    expectTypeOf<EntityKey<E>>().toEqualTypeOf<'id' | 'title' | 'venue'>();
    // Without a known entity type, any string (what the engine itself handles).
    expectTypeOf<EntityKey<any>>().toEqualTypeOf<string>();
    expectTypeOf<ListColumnConfig<E, E['venue']>['select']>().toEqualTypeOf<'id' | 'city' | undefined>();
  });

  it('a typo in a property-naming key is a compile error at the line with the typo', () => {
    defineController({
      name: 'events',
      entity: Event,
      list: {
        columns: {
          // @ts-expect-error: no property "titel" ("Did you mean to write 'title'?")
          titel: { label: 'Title' },
        },
      },
    });
    defineController({
      name: 'events',
      entity: Event,
      list: {
        columns: { title: { label: 'Title', sortable: true } },
        // @ts-expect-error: a sort column that is no property
        defaultSort: { column: 'tittle', direction: 'asc' },
      },
    });
    defineController({
      name: 'events',
      entity: Event,
      list: {
        columns: { title: { label: 'Title' } },
        filters: {
          // @ts-expect-error: a filter column that is no property
          status: { type: 'group', label: 'Status', column: 'stauts', options: { a: 'A' } },
        },
      },
    });
    defineController({
      name: 'events',
      entity: Event,
      list: {
        columns: {
          // @ts-expect-error: `select` names a property of the related entity (Venue has no "nmae")
          venue: { label: 'Venue', relation: 'venue', select: 'nmae' },
        },
        // @ts-expect-error: a rowStates column that is no property
        rowStateColumns: ['deleted'],
      },
    });
    defineController({
      name: 'events',
      entity: Event,
      // @ts-expect-error: a soft-delete column that is no property
      softDelete: 'deletedAt',
      scopes: {
        // @ts-expect-error: a fixed scope condition naming no property
        list: { stauts: 'published' },
        // @ts-expect-error: a computed scope whose condition names no property
        form: () => ({ titel: 'x' }),
      },
      list: { columns: { title: { label: 'Title' } } },
      // @ts-expect-error: a reorder column that is no property
      reorder: { sortColumn: 'order' },
    });
    defineController({
      name: 'events',
      entity: Event,
      form: { fields: { tags: { type: 'relation-manager', relation: 'tags' } } },
      relations: {
        tags: {
          view: {
            list: {
              columns: {
                // @ts-expect-error: a relation list's columns are the related entity's (Tag has "label", not "title")
                title: { label: 'Title' },
              },
            },
          },
        },
      },
    });
    defineController({
      name: 'events',
      entity: Event,
      form: {
        fields: {
          // @ts-expect-error: a relation field's `nameFrom` names a property of the related entity (Venue has no "nmae")
          venue: { type: 'relation', nameFrom: 'nmae' },
          // Any other field name is free (a virtual field, a partial); its keys are checked by its type.
          venue_note: { type: 'partial', path: 'venue_note' },
        },
      },
    });
    defineController({
      name: 'events',
      entity: Event,
      form: { fields: { title: { type: 'text' } } },
      relations: {
        // @ts-expect-error: no relation "tagz"
        tagz: { view: { list: { columns: {} } } },
      },
    });
  });
});

describe('FieldConfig: a union discriminated by `type`', () => {
  it('each type takes its own keys', () => {
    const fields: Record<string, FieldConfig> = {
      a: { type: 'money', currency: 'EUR', scale: 2, min: '0', max: '100' },
      b: { type: 'number', min: 0, max: 10, step: 2 },
      c: { type: 'fileupload', mode: 'image', maxFiles: 1, fileTypes: ['png'] },
      d: { type: 'taglist', mode: 'array', options: { a: 'A' }, customTags: false },
      e: { type: 'checkbox', label: 'Yes?', default: false },
      f: { type: 'acme-rating', element: 'acme-rating', translatable: true },
    };
    expect(Object.keys(fields)).toHaveLength(6);
    type Money = Extract<FieldConfig, { type: 'money' }>;
    expectTypeOf<Money['scale']>().toEqualTypeOf<number | undefined>();
    // Another type's key reads as `undefined` (code that handles any field can read it).
    type Text = Extract<FieldConfig, { type: 'text' }>;
    expectTypeOf<Text['scale']>().toEqualTypeOf<undefined>();
  });

  it('a key of another type, or an unknown key, is an error on that key', () => {
    const fields: Record<string, FieldConfig> = {
      // @ts-expect-error: `scale` is a money key, not a text key
      a: { type: 'text', scale: 2 },
      // @ts-expect-error: a typo of `label`: "Did you mean to write 'label'?"
      b: { type: 'text', lable: 'Title' },
      // @ts-expect-error: number's `min` is a number
      c: { type: 'number', min: '1' },
      // @ts-expect-error: fileupload's mode is 'image' or 'file'
      d: { type: 'fileupload', mode: 'images' },
      // @ts-expect-error: a plugin field type takes no built-in type's keys
      e: { type: 'acme-color', options: { a: 'A' } },
    };
    expect(fields).toBeDefined();
  });
});
