import type { ResolvedController, ResolvedField } from '../controllers/resolve.ts';
import { inContext } from '../fields/context.ts';
import { error412 } from './components.ts';
import { columnValue, inputValue, recordValue } from './fields.ts';
import { arrayOf, componentName, exact, object, string, ID } from '../schema/json.ts';
import { ref, type Schema } from '../schema/types.ts';
import type { SchemaComponents } from '../schema/route.ts';

/** Where the per-controller schemas go: `components.schemas` of the document being built. */
export type SchemaRegistry = SchemaComponents;

/**
 * The schemas of one controller (docs/openapi.md, "Controllers"): its record (the form's fields
 * with a value), the bodies a create and an update accept, its list row, and the envelopes built
 * on them. Each is registered once in `components.schemas` under the controller's address
 * (`cms.journal.posts.Record`) and referenced from every route that answers it.
 */
export class ControllerModel {
  readonly controller: ResolvedController;
  readonly #registry: SchemaRegistry;
  readonly #name: string;

  constructor(controller: ResolvedController, registry: SchemaRegistry, name = controller.address) {
    this.controller = controller;
    this.#registry = registry;
    this.#name = name;
  }

  /** Registers `build()` under `<address>.<suffix>` once and answers a reference to it. */
  #component(suffix: string, build: () => Schema): Schema {
    const name = componentName(this.#name, suffix);
    if (!Object.hasOwn(this.#registry.schemas, name)) {
      this.#registry.schemas[name] = {};
      this.#registry.schemas[name] = build();
    }
    return ref(name);
  }

  get #fields(): ResolvedField[] {
    return [...this.controller.fields.values()];
  }

  /** Relation fields: their labels are in `meta.labels`. */
  get #relationFields(): ResolvedField[] {
    return this.#fields.filter((field) => field.type.storage === 'relation' && field.property && field.relation);
  }

  /** A record as show, create, update and singleton serve it: `id` and every field with a value (never a password). */
  record(): Schema {
    return this.#component('Record', () => {
      const properties: Record<string, Schema> = { id: ID };
      for (const field of this.#fields) {
        const value = recordValue(field, this.#registry.locales);
        if (value) properties[field.name] = value;
      }
      return exact(properties, { description: `A record of ${this.controller.address.split('#')[0]}.` });
    });
  }

  /** `meta` of a record answer: relation labels, the record actions (show), its version and save notices. */
  recordMeta(): Schema {
    return this.#component('RecordMeta', () =>
      object(
        {
          labels: exact(Object.fromEntries(this.#relationFields.map((field) => [field.name, arrayOf(ref('RelationOption'))]))),
          actions: arrayOf(ref('RecordAction')),
          etag: string({ description: 'The record\u2019s version, also the `ETag` header.' }),
          notices: arrayOf(ref('FieldNotice'), { description: 'Present when a field type changed what it was sent.' }),
        },
        ['labels', 'actions'],
      ),
    );
  }

  /** The record envelope `{data, meta}`. */
  recordEnvelope(): Schema {
    return this.#component('RecordEnvelope', () => exact({ data: this.record(), meta: this.recordMeta() }));
  }

  /** The 412 of an update sent with a stale `If-Match`: the error and the current record. */
  staleEnvelope(): Schema {
    return this.#component('VersionMismatch', () => error412(this.record(), this.recordMeta()));
  }

  /** The body of a create (`create`) or an update (`update`): the writable fields of that context. */
  body(mode: 'create' | 'update'): Schema {
    const suffix = mode === 'create' ? 'Create' : 'Update';
    return this.#component(suffix, () => {
      const properties: Record<string, Schema> = {};
      const required: string[] = [];
      for (const field of this.#fields) {
        if (!inContext(field, mode) || field.config.readOnly) continue;
        const value = inputValue(field, this.#registry.locales);
        if (!value) continue;
        properties[field.name] = value;
        if (mode === 'create' && field.config.required && field.config.default === undefined) required.push(field.name);
      }
      return object(properties, required, {
        description: `Field values by name; ${mode === 'create' ? 'an absent key takes its default' : 'an absent key keeps its value'}.`,
      });
    });
  }

  /** A list row: `id` and one key per list column. */
  row(): Schema {
    return this.#component('Row', () => {
      const properties: Record<string, Schema> = { id: ID };
      for (const column of this.controller.columns.values()) properties[column.key] = columnValue(column);
      return exact(properties);
    });
  }

  /** The list envelope `{data: rows, meta: ListMeta}`. */
  listEnvelope(): Schema {
    return this.#component('List', () => exact({ data: arrayOf(this.row()), meta: ref('ListMeta') }));
  }
}

/** One schema, or any of several (relation routes serve the schema of the relation the path names). */
export function anyOf(schemas: readonly Schema[]): Schema {
  const unique = [...new Map(schemas.map((schema) => [JSON.stringify(schema), schema])).values()];
  return unique.length === 1 ? unique[0]! : { anyOf: unique };
}
