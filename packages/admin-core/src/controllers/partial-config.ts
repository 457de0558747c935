import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../auth/principal.ts';

/** What a partial's `viewModel` gets (docs/partials.md). */
export interface PartialContext {
  /**
   * The record as the show route serves its `data` (ids for relations, no password or other
   * virtual field), loaded through the form scope. Present only for a form partial asked with
   * `?id=`; absent otherwise.
   */
  record?: Record<string, unknown>;
  /** The record's relation labels, as the show route serves `meta.labels`; present with `record`. */
  labels?: Record<string, Array<{ label: string; value: number }>>;
  principal: Principal;
  /** A fork of the entity manager for this request: read what else the partial shows with it. */
  em: EntityManager;
  /** The request's locale (`en`, `de`, …). */
  locale: string;
  /** Translates a string key in the request's locale (`count` picks the plural form). */
  t(key: string, params?: Record<string, string | number>, count?: number): string;
}

/**
 * A controller partial (docs/partials.md): a Liquid template rendered against a view model, served
 * as an allowlisted PartialNode tree. Declared under the controller's `partials`, by name.
 */
export interface PartialConfig {
  /**
   * Liquid source, parsed once at start-up (a syntax error, an unknown filter, or an `include`,
   * `render` or `layout` tag fails start-up). Output is HTML-escaped unless the last filter is `raw`.
   */
  template: string;
  /** A form partial accepts `?id=` and then renders with the record (default false). */
  form?: boolean;
  /**
   * The data the template sees: plain data only (objects, arrays, strings, numbers, booleans,
   * null; a Date becomes its ISO string, a bigint its decimal string; anything else, a function
   * or a class instance, is a programming error and answers 500). Default: `{ record, labels }`
   * with a record, else `{}`.
   */
  viewModel?: (ctx: PartialContext) => Record<string, unknown> | Promise<Record<string, unknown>>;
}
