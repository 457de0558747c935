import type { Collection } from '@mikro-orm/core';
import type { PrincipalAdmin } from '../auth/principal.ts';
import type { ResolvedField } from '../controllers/resolve.ts';

/*
 * Which fields a write changed, by name (docs/audit.md, "Changed fields"). Values are compared
 * here and never leave this module: the audit log stores names only.
 */

/** A value as canonical JSON: object keys sorted, dates as ISO text, so `{a,b}` equals `{b,a}`. */
function canonical(value: unknown, depth = 0): string {
  if (value instanceof Date) return JSON.stringify(Number.isNaN(value.getTime()) ? null : value.toISOString());
  // Values here were decoded and stored already; the bound only keeps a pathological one cheap.
  if (depth > 32 || typeof value !== 'object' || value === null) return JSON.stringify(value ?? null) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item, depth + 1)).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key], depth + 1)}`);
  return `{${entries.join(',')}}`;
}

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** The keys of either object whose values differ (settings data and secrets, admin metadata). */
export function changedKeys(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter(
    (key) => !same(Object.hasOwn(before, key) ? before[key] : undefined, Object.hasOwn(after, key) ? after[key] : undefined),
  );
}

const referenceId = (value: unknown): number | null =>
  value == null ? null : typeof value === 'object' ? Number((value as { id?: unknown }).id) : Number(value);

/** Relation ids in a comparable order (a belongsToMany is served ordered by label). */
const sortedIds = (value: unknown) => (Array.isArray(value) ? [...value].map(Number).sort((a, b) => a - b) : value);

/**
 * The values of `fields` a loaded record holds before a save assigns to it, as a record serves
 * them (`encode` of each type; relation ids). Loads the belongsToMany collections it reads.
 */
export async function storedFieldValues(
  record: Record<string, unknown>,
  fields: Iterable<ResolvedField>,
  locales: readonly string[],
): Promise<Map<string, unknown>> {
  const values = new Map<string, unknown>();
  for (const field of fields) {
    const property = field.property;
    if (!property) continue;
    const stored = record[property.name];
    if (field.type.storage === 'column')
      values.set(field.name, field.type.encode(stored, field.config, { locales, relation: field.relation }));
    else if (property.kind === 'm:n') {
      const collection = stored as Collection<object>;
      if (!collection.isInitialized()) await collection.init();
      values.set(field.name, sortedIds(collection.getItems().map(referenceId)));
    } else values.set(field.name, referenceId(stored));
  }
  return values;
}

/**
 * The body keys a save changed. On create (`before` undefined): every key sent that was stored or
 * passed on. On update: each stored field whose served value differs from `before`, and every
 * virtual field given a value (a password: named, never valued).
 */
export function changedFields(input: {
  before: Map<string, unknown> | undefined;
  fields: Iterable<ResolvedField>;
  /** The record as answered after the save (`encodeRecord`'s `data`). */
  after: Record<string, unknown>;
  virtual: Record<string, unknown>;
  body: Record<string, unknown>;
}): string[] {
  const names: string[] = [];
  for (const field of input.fields) {
    if (!input.before) {
      if (Object.hasOwn(input.body, field.name)) names.push(field.name);
      continue;
    }
    const after = field.property?.kind === 'm:n' ? sortedIds(input.after[field.name]) : input.after[field.name];
    if (!same(input.before.get(field.name), after)) names.push(field.name);
  }
  return [...names, ...Object.keys(input.virtual)];
}

/** The fields `PUT /account` changed, by their names in the body; `password` when one was set. */
export function accountChanges(before: PrincipalAdmin, after: PrincipalAdmin, password: boolean): string[] {
  const served = (admin: PrincipalAdmin) => ({
    email: admin.email,
    first_name: admin.firstName,
    last_name: admin.lastName,
    subtitle: admin.subtitle,
  });
  return [...changedKeys(served(before), served(after)), ...(password ? ['password'] : [])];
}
