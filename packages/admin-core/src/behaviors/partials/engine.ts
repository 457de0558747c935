import { Context, Liquid, toValueSync, type FS, type Template } from 'liquidjs';
import { PARTIAL_LIMITS, PartialLimitError } from './limits.ts';

/*
 * The template engine of partials: LiquidJS, configured so that a template reads its view model
 * and nothing else (docs/partials.md says why Liquid):
 * - `ownPropertyOnly`: a template reads own properties only (no `constructor`, `__proto__`,
 *   prototype methods); the view model is copied into null-prototype objects on top of that, and
 *   holds no functions (Liquid calls a function it reads);
 * - no file system: the `include`, `render` and `layout` tags (and `block`, which only serves
 *   layouts) are removed, so a template that uses them fails to parse at start-up, and the file
 *   system handed to Liquid refuses every read anyway;
 * - no globals; `strictFilters`, so an unknown filter fails start-up instead of vanishing;
 * - bounded work: template size, render time, allocations (Liquid's limits), and output size (our
 *   emitter stops at the partial output limit instead of building a larger string);
 * - every output is HTML-escaped unless its last filter is `raw`; the node allowlist applies to
 *   the whole output in any case.
 */

const REFUSED_TAGS = ['include', 'render', 'layout', 'block'];

/** Refuses every file access: partials are strings in the plugin's code, never files. */
const noFiles: FS = {
  exists: async () => false,
  existsSync: () => false,
  readFile: async (file) => {
    throw new Error(`partials read no files (${file})`);
  },
  readFileSync: (file) => {
    throw new Error(`partials read no files (${file})`);
  },
  resolve: (_dir, file) => file,
  contains: async () => false,
  containsSync: () => false,
  sep: '/',
  dirname: () => '/',
};

/** Template source, in characters: a partial is a fragment, not a page. */
export const TEMPLATE_MAX_LENGTH = 64 * 1024;

const liquid = new Liquid({
  root: [],
  partials: [],
  layouts: [],
  fs: noFiles,
  relativeReference: false,
  dynamicPartials: false,
  ownPropertyOnly: true,
  strictFilters: true,
  strictVariables: false,
  outputEscape: 'escape',
  globals: Object.freeze(Object.create(null)),
  // The `date` filter formats in UTC with English names on every host (localized dates belong
  // in the view model, formatted with the request's locale).
  timezoneOffset: 0,
  locale: 'en',
  parseLimit: TEMPLATE_MAX_LENGTH,
  renderLimit: PARTIAL_LIMITS.renderMilliseconds,
  memoryLimit: PARTIAL_LIMITS.memoryUnits,
});
for (const tag of REFUSED_TAGS) delete liquid.tags[tag];

/** Translators by render: keyed by the per-render globals object, which spawned contexts share. */
const translators = new WeakMap<object, Translate>();
export type Translate = (key: string, params?: Record<string, string | number>, count?: number) => string;

/**
 * `{{ 'acme.catalog::partials.sku' | t }}`, with named parameters
 * `{{ 'cms.journal::posts.count' | t: count: n }}` (`count` also picks the plural form).
 */
liquid.registerFilter('t', function (this: { context: Context }, key: unknown, ...args: unknown[]) {
  const translate = translators.get(this.context.globals as object);
  if (typeof key !== 'string' || !translate) return '';
  const params: Record<string, string | number> = {};
  for (const arg of args) {
    if (!Array.isArray(arg) || typeof arg[0] !== 'string') continue; // only `name: value` pairs
    const value = arg[1];
    if (typeof value === 'number' || typeof value === 'string') params[arg[0]] = value;
  }
  return translate(key, params, typeof params.count === 'number' ? params.count : undefined);
});

export type CompiledTemplate = Template[];

/** Parses a template; throws Liquid's ParseError/TokenizationError (with line and column). */
export function compileTemplate(source: string): CompiledTemplate {
  if (source.length > TEMPLATE_MAX_LENGTH) throw new Error(`the template has ${source.length} characters, over ${TEMPLATE_MAX_LENGTH}`);
  return liquid.parse(source);
}

/** Collects the output and refuses it once it is over the output limit. */
class BoundedEmitter {
  buffer = '';
  write(html: unknown): void {
    this.buffer += html == null ? '' : String(html);
    // UTF-16 units never outnumber UTF-8 bytes: over in units is over in bytes.
    if (this.buffer.length > PARTIAL_LIMITS.outputBytes) throw new PartialLimitError(`output over ${PARTIAL_LIMITS.outputBytes} bytes`);
  }
}

/**
 * Renders a compiled template against plain view data (see `viewData`). Synchronous: the view
 * model is complete before rendering, so a template can wait on nothing. Throws Liquid's
 * RenderError (time or allocation limit) or PartialLimitError (output over the limit).
 */
export function renderTemplate(template: CompiledTemplate, data: Record<string, unknown>, translate: Translate): string {
  const globals = Object.freeze(Object.create(null)) as object;
  translators.set(globals, translate);
  const ctx = new Context(data, liquid.options, { sync: true, globals }, { liquid });
  const emitter = new BoundedEmitter();
  try {
    toValueSync(liquid.renderer.renderTemplates(template, ctx, emitter as never));
  } catch (error) {
    // Liquid wraps what a filter or tag throws: unwrap our own limit error so the log says it.
    const original = (error as { originalError?: unknown }).originalError;
    throw original instanceof PartialLimitError ? original : error;
  }
  return emitter.buffer;
}

/**
 * A null-prototype object still prints (as nothing) when a template outputs it whole: Liquid
 * calls `String()` on it. The key is a symbol, which no template can name.
 */
const PLAIN_OBJECT: PropertyDescriptorMap = { [Symbol.toPrimitive]: { value: () => '', enumerable: false } };

/**
 * The view model as plain data the template may read: objects become null-prototype objects of
 * their own enumerable string keys, `undefined` entries are left out (as JSON does), Dates
 * become ISO strings, bigints decimal strings, non-finite numbers null. Anything else (a
 * function, a class instance, a Map, a cycle) is a programming error of the partial's author.
 */
export function viewData(value: unknown, path = 'viewModel', seen: object[] = []): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === 'object') {
    if (seen.includes(value) || seen.length >= 64) throw new Error(`partial view model: ${path} is cyclic or nested too deep`);
    const inner = [...seen, value];
    if (Array.isArray(value)) return value.map((item, index) => viewData(item === undefined ? null : item, `${path}[${index}]`, inner));
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto === Object.prototype || proto === null) {
      const out = Object.create(null, PLAIN_OBJECT) as Record<string, unknown>;
      for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = viewData(item, `${path}.${key}`, inner);
      return out;
    }
  }
  throw new Error(
    `partial view model: ${path} is ${typeof value === 'object' ? `a ${(value as object).constructor?.name ?? 'non-plain object'}` : `a ${typeof value}`}; pass plain data`,
  );
}
