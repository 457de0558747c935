import type { ValidateFunction } from 'ajv';
import { NotFound, Validation, type ErrorDetails } from '../errors/index.ts';
import type { Strings } from '../i18n/strings.ts';
import type { RouteSchema } from '../schema/route.ts';
import type { Parameter, Schema } from '../schema/types.ts';
import { absoluteRefs, compileOnce, detailsOf, newAjv, type Translate } from '../schema/validate.ts';
import { bodyKindOf, type AdminRequest, type RouteDefinition } from './types.ts';

/*
 * Input validation from route descriptions (docs/architecture.md, "Request flow"; Fastify's
 * model): each route's parameters and JSON body are compiled once at start-up into Ajv
 * validators, run by the pipeline before the handler. A failure is the error envelope with the
 * message keys the hand-written checks used (docs/errors.md, "What makes a validation_failed").
 */

/** Checks one request against its route's description; throws the 404 or 422 it earns. */
export type RouteCheck = (req: AdminRequest, strings: Strings) => void;

/** The value of a path, query or header parameter as its schema's type: a string that is not one stays a string, and fails. */
function decodeParameter(raw: unknown, schema: Schema): unknown {
  const type = schema.type;
  if (typeof raw !== 'string') return raw;
  if (type === 'integer') return /^(0|-?[1-9]\d{0,15})$/.test(raw) ? Number(raw) : raw;
  if (type === 'number') return /^-?(0|[1-9]\d*)(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  return raw;
}

interface CompiledParameter {
  parameter: Parameter;
  validate: ValidateFunction;
}

/** One route's checks: its parameters, then its JSON body. */
function compileRoute(
  route: RouteDefinition,
  schema: RouteSchema,
  compile: (schema: Schema) => ValidateFunction,
  components: Record<string, Schema>,
): RouteCheck {
  const parameters: CompiledParameter[] = (schema.parameters ?? [])
    .filter((parameter) => parameter.style !== 'deepObject' && !(parameter.in === 'query' && schema.handlerDecodesQuery))
    .map((parameter) => ({ parameter, validate: compile(parameter.schema) }));
  const json = bodyKindOf(route, route.method) === 'json' ? schema.body?.content['application/json']?.schema : undefined;
  const body = json && !schema.handlerDecodesBody ? compile(json) : undefined;
  // A body described as an object (directly or by a component) must be one: `body_object` otherwise.
  const target = typeof json?.$ref === 'string' ? components[json.$ref.replace('#/components/schemas/', '')] : json;
  const wantsObject = json !== undefined && (schema.handlerDecodesBody === true || target?.type === 'object');

  return (req, strings) => {
    const t: Translate = (key, params, count) => strings.t(req.locale, key, params, count);
    const details: ErrorDetails = {};
    for (const { parameter, validate } of parameters) {
      const raw =
        parameter.in === 'path'
          ? req.params[parameter.name]
          : parameter.in === 'query'
            ? req.query[parameter.name]
            : req.headers[parameter.name.toLowerCase()];
      if (raw === undefined) {
        if (parameter.required && parameter.in !== 'path') {
          const message = schema.messages?.[parameter.name] ?? 'backend::validation.required';
          Object.defineProperty(details, parameter.name, { value: [t(message)], enumerable: true, writable: true, configurable: true });
        }
        continue;
      }
      // A repeated query key is one value too many unless the parameter is a list: its type fails.
      if (validate(decodeParameter(raw, parameter.schema))) continue;
      // A path that names no such thing is not found, whatever was wrong with it.
      if (parameter.in === 'path') throw NotFound();
      Object.assign(details, detailsOf(validate.errors ?? [], parameter.name, schema.messages, t));
    }
    if (Object.keys(details).length) throw Validation(details);
    if (!wantsObject) return;
    const value = req.body === undefined || req.body === null ? {} : req.body;
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw Validation({ body: [t('backend::validation.body_object')] });
    }
    if (body && !body(value)) throw Validation(detailsOf(body.errors ?? [], undefined, schema.messages, t));
  };
}

/**
 * The checks of every route that carries its own description, compiled once (at start-up, with
 * the document): one Ajv instance with the shared components, one validator per parameter and
 * body. Routes without a description get no check here (their handlers check their input).
 */
export function compileRouteChecks(
  described: ReadonlyMap<RouteDefinition, RouteSchema>,
  components: Record<string, Schema>,
): ReadonlyMap<RouteDefinition, RouteCheck> {
  const ajv = newAjv(components);
  const compile = compileOnce(ajv, absoluteRefs);
  const checks = new Map<RouteDefinition, RouteCheck>();
  for (const [route, schema] of described) {
    if (route.schema !== undefined) checks.set(route, compileRoute(route, schema, compile, components));
  }
  return checks;
}
