import type { ErrorObject } from 'ajv';
import type { Schema } from './types.ts';

/*
 * What a refused value is examined as (docs/errors.md, "Bounded refusals"). A validator that
 * reports every error costs what the value holds: 120,000 unknown keys are 120,000 errors. Before
 * a refused value is checked for all its errors, it is cut to what its schema declares: unknown
 * keys of a closed object become one error each up to the detail bound and are counted past it
 * (the key itself is left out), a list longer than its `maxItems` is one error and only its first
 * items are examined, and no container is examined past `ENTRY_BUDGET` entries or the whole past
 * `NODE_BUDGET` nodes. A value within its schema's declared sizes is examined whole, so every
 * problem of an ordinary body is still found in one round.
 */

/** Unknown keys reported as errors: as many as a refusal's details can name. */
const REPORTED_UNKNOWN_KEYS = 50;
/** Entries of one list or open map examined, when its schema declares no smaller bound. */
const ENTRY_BUDGET = 1000;
/** Objects, lists and values examined in all. */
const NODE_BUDGET = 5000;

export interface BoundedValue {
  /** The value to validate: `value` itself, or a copy cut to the bounds. */
  value: unknown;
  /** Errors found while cutting (unknown keys, lists over `maxItems`), in Ajv's shape. */
  errors: ErrorObject[];
  /** Unknown keys past those reported: counted only. */
  omitted: number;
}

/** Resolves `#/components/schemas/X` references. */
export type ResolveRef = (ref: string) => Schema | undefined;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON kind of a value as a schema's `type` names it. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'number' ? 'number' : typeof value;
}

/** Pointer escaping of one segment (`/` and `~`), as Ajv writes `instancePath`. */
const segment = (key: string | number) => `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

const error = (instancePath: string, keyword: string, params: Record<string, unknown>): ErrorObject => ({
  instancePath,
  schemaPath: '#',
  keyword,
  params,
});

class Walk {
  readonly errors: ErrorObject[] = [];
  omitted = 0;
  #nodes = 0;
  #reported = 0;
  readonly #resolve: ResolveRef;

  constructor(resolve: ResolveRef) {
    this.#resolve = resolve;
  }

  /** The schema a value is checked by: references followed, a union narrowed to the one branch of the value's kind. */
  #schemaFor(value: unknown, schema: Schema | undefined): Schema | undefined {
    let current = schema;
    for (let hops = 0; current !== undefined && hops < 16; hops += 1) {
      if (typeof current.$ref === 'string') {
        current = this.#resolve(current.$ref);
        continue;
      }
      const branches = (current.anyOf ?? current.oneOf) as Schema[] | undefined;
      if (!Array.isArray(branches)) return current;
      const kind = kindOf(value);
      const fitting = branches
        .map((branch) => (typeof branch.$ref === 'string' ? this.#resolve(branch.$ref) : branch))
        .filter((branch) => branch !== undefined && (branch.type === kind || (kind === 'number' && branch.type === 'integer')));
      // Several branches of the same kind: the value is left as it is (no open container is cut).
      if (fitting.length !== 1) return undefined;
      current = fitting[0];
    }
    return current;
  }

  cut(value: unknown, schema: Schema | undefined, path: string): unknown {
    this.#nodes += 1;
    if (typeof value !== 'object' || value === null) return value;
    const own = this.#schemaFor(value, schema);
    // A value its schema does not constrain (or a union of several of its kind) is examined as it is.
    if (own === undefined || Object.keys(own).every((key) => key === 'description')) return value;
    // A value of another kind is refused by its type alone: nothing inside it is examined.
    if (typeof own.type === 'string' && own.type !== kindOf(value)) return value;
    if (Array.isArray(value)) return this.#list(value, own, path);
    return this.#object(value as Record<string, unknown>, own, path);
  }

  #room(): number {
    return Math.max(0, NODE_BUDGET - this.#nodes);
  }

  #list(value: unknown[], schema: Schema, path: string): unknown[] {
    const items = isObject(schema.items) ? (schema.items as Schema) : undefined;
    const max = typeof schema.maxItems === 'number' ? schema.maxItems : undefined;
    const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
    if (max !== undefined && value.length > max) this.errors.push(error(path, 'maxItems', { limit: max }));
    // Never fewer than `minItems` (that would be a problem of the cut, not of the value).
    const keep = Math.min(value.length, Math.max(Math.min(max ?? value.length, ENTRY_BUDGET, this.#room()), min));
    const out: unknown[] = new Array(keep);
    for (let i = 0; i < keep; i += 1) out[i] = this.cut(value[i], items, path + segment(i));
    return out;
  }

  #object(value: Record<string, unknown>, schema: Schema, path: string): Record<string, unknown> {
    const properties = isObject(schema.properties) ? (schema.properties as Record<string, Schema>) : {};
    const additional = schema.additionalProperties;
    const closed = additional === false;
    const open = isObject(additional) ? (additional as Schema) : undefined;
    const out: Record<string, unknown> = {};
    let entries = 0;
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      if (Object.hasOwn(properties, key)) {
        Object.defineProperty(out, key, { value: this.cut(value[key], properties[key], path + segment(key)), enumerable: true });
      } else if (closed) {
        if (this.#reported < REPORTED_UNKNOWN_KEYS) {
          this.#reported += 1;
          this.errors.push(error(path, 'additionalProperties', { additionalProperty: key }));
        } else this.omitted += 1;
      } else if (entries < ENTRY_BUDGET && this.#room() > 0) {
        entries += 1;
        Object.defineProperty(out, key, { value: this.cut(value[key], open, path + segment(key)), enumerable: true });
      }
    }
    return out;
  }
}

/** `value` cut to what `schema` declares, with the errors the cutting found (see above). */
export function boundedValue(value: unknown, schema: Schema, resolve: ResolveRef): BoundedValue {
  const walk = new Walk(resolve);
  const cut = walk.cut(value, schema, '');
  return { value: cut, errors: walk.errors, omitted: walk.omitted };
}
