import type { At } from '../../controllers/check-list.ts';
import { onlyKeys } from '../../controllers/check-list.ts';
import { isObject } from '../../validation/values.ts';
import type { ControllerConfig } from '../../controllers/types.ts';
import { compileTemplate, TEMPLATE_MAX_LENGTH, type CompiledTemplate } from './engine.ts';
import type { PartialConfig } from './types.ts';

/** A partial name is one URL segment of `/{ctl}/partials/{name}` (never `.` or `..`). */
const PARTIAL_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}$/;
const PARTIAL_KEYS = ['template', 'form', 'viewModel'];

export interface CompiledPartial {
  name: string;
  config: PartialConfig;
  template: CompiledTemplate;
}

/**
 * Parsed templates by controller configuration: parsed once by the start-up check and read by
 * the route. A cache of a pure function of the (frozen at start-up) configuration, not state.
 */
const compiled = new WeakMap<ControllerConfig, ReadonlyMap<string, CompiledPartial>>();

/**
 * Start-up check of `partials` and of the partial names the form and the list refer to: each
 * name is a URL segment, each config has known keys of the right kinds, each template parses
 * (Liquid's message, with line and column, is the problem), and every `type: partial` field
 * `path`, `form.preview.headerPartial` and `list.headerPartial` names a registered partial.
 */
export function checkPartials(at: At, config: ControllerConfig): ReadonlyMap<string, CompiledPartial> {
  const partials = new Map<string, CompiledPartial>();
  if (config.partials !== undefined && !isObject(config.partials)) {
    throw at(
      'controller_value_invalid',
      'partials',
      'must be an object of partial name to partial',
      'Use for example `{ summary: { template: "<p>{{ record.name }}</p>", form: true } }`.',
    );
  }
  for (const [name, partial] of Object.entries(config.partials ?? {})) {
    const where = `partials.${name}`;
    if (!PARTIAL_NAME.test(name))
      throw at(
        'partial_name_invalid',
        where,
        `${JSON.stringify(name)} is not a partial name (one URL segment)`,
        'Use letters, digits, "_", "-" and "." (not first), at most 100 characters.',
      );
    onlyKeys(at, where, partial, PARTIAL_KEYS, '{ template, form?, viewModel? }');
    if (typeof partial.template !== 'string' || partial.template === '')
      throw at('controller_value_invalid', `${where}.template`, 'a template is required', 'Set `template` to a Liquid template string.');
    if (partial.form !== undefined && typeof partial.form !== 'boolean')
      throw at(
        'controller_value_invalid',
        `${where}.form`,
        'must be true or false',
        'Use `form: true` for a partial that takes a record `id`.',
      );
    if (partial.viewModel !== undefined && typeof partial.viewModel !== 'function')
      throw at('controller_value_invalid', `${where}.viewModel`, 'must be a function', 'Pass `(ctx) => ({ … })`.');
    if (partial.template.length > TEMPLATE_MAX_LENGTH)
      throw at(
        'partial_template_too_long',
        `${where}.template`,
        `the template has ${partial.template.length} characters, over ${TEMPLATE_MAX_LENGTH}`,
        'Keep a partial small; move data into the view model.',
      );
    let template: CompiledTemplate;
    try {
      template = compileTemplate(partial.template);
    } catch (error) {
      const message = String((error as Error).message)
        .split('\n')[0]!
        .replace(/\.$/, '');
      throw at(
        'partial_template_invalid',
        `${where}.template`,
        `the template does not parse: ${message}`,
        "Fix the Liquid syntax. Partials have no `include`, `render` or `layout` (they read no files), and only Liquid's standard filters and `t`.",
      );
    }
    partials.set(name, { name, config: partial as PartialConfig, template });
  }
  const named = (key: string, value: unknown) => {
    if (typeof value === 'string' && !partials.has(value)) {
      throw at(
        'partial_unknown',
        key,
        `names the partial ${JSON.stringify(value)}, which the controller does not register`,
        `Declare it under \`partials\`${partials.size ? ` (registered: ${[...partials.keys()].join(', ')})` : ''}.`,
      );
    }
  };
  for (const [field, fieldConfig] of Object.entries(config.form?.fields ?? {})) {
    if (isObject(fieldConfig) && fieldConfig.type === 'partial') named(`form.fields.${field}.path`, fieldConfig.path);
  }
  named('form.preview.headerPartial', config.form?.preview?.headerPartial);
  named('list.headerPartial', config.list?.headerPartial);
  compiled.set(config, partials);
  return partials;
}

/** The compiled partials of a controller configuration (checked at start-up). */
export function compiledPartials(config: ControllerConfig): ReadonlyMap<string, CompiledPartial> {
  const known = compiled.get(config);
  if (known) return known;
  // Only reached when routes are built without the start-up check: check now, fail loudly.
  return checkPartials((key, problem, fix) => new Error(`partials of ${config.name}, key "${key}": ${problem}. ${fix}`) as never, config);
}
