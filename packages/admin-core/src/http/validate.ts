import { DetailsCollector } from '../errors/details.ts';
import { NotFound, Validation } from '../errors/index.ts';
import type { Strings } from '../i18n/strings.ts';
import type { RouteSchema } from '../schema/route.ts';
import type { Parameter, Schema } from '../schema/types.ts';
import { absoluteRefs, collectDetails, compileChecks, refusalOf, type SchemaCheck, type Translate } from '../schema/validate.ts';
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
  check: SchemaCheck;
}

/** One route's checks: its parameters, then its JSON body. */
function compileRoute(
  route: RouteDefinition,
  schema: RouteSchema,
  compile: (schema: Schema) => SchemaCheck,
  components: Record<string, Schema>,
): RouteCheck {
  const parameters: CompiledParameter[] = (schema.parameters ?? [])
    .filter((parameter) => parameter.style !== 'deepObject' && !(parameter.in === 'query' && schema.handlerDecodesQuery))
    .map((parameter) => ({ parameter, check: compile(parameter.schema) }));
  const json = bodyKindOf(route, route.method) === 'json' ? schema.body?.content['application/json']?.schema : undefined;
  const body = json && !schema.handlerDecodesBody ? compile(json) : undefined;
  // A body described as an object (directly or by a component) must be one: `body_object` otherwise.
  const target = typeof json?.$ref === 'string' ? components[json.$ref.replace('#/components/schemas/', '')] : json;
  const wantsObject = json !== undefined && (schema.handlerDecodesBody === true || target?.type === 'object');

  return (req, strings) => {
    const t: Translate = (key, params, count) => strings.t(req.locale, key, params, count);
    const details = new DetailsCollector();
    for (const { parameter, check } of parameters) {
      const raw =
        parameter.in === 'path'
          ? req.params[parameter.name]
          : parameter.in === 'query'
            ? req.query[parameter.name]
            : req.headers[parameter.name.toLowerCase()];
      if (raw === undefined) {
        if (parameter.required && parameter.in !== 'path') {
          details.add(parameter.name, () => t(schema.messages?.[parameter.name] ?? 'backend::validation.required'));
        }
        continue;
      }
      // A repeated query key is one value too many unless the parameter is a list: its type fails.
      const refused = check(decodeParameter(raw, parameter.schema));
      if (!refused) continue;
      // A path that names no such thing is not found, whatever was wrong with it.
      if (parameter.in === 'path') throw NotFound();
      details.omit(refused.omitted);
      collectDetails(details, refused.errors, parameter.name, schema.messages, t);
    }
    if (details.any) throw details.refusal();
    if (!wantsObject) return;
    const value = req.body === undefined || req.body === null ? {} : req.body;
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw Validation({ body: [t('backend::validation.body_object')] });
    }
    const refused = body?.(value);
    if (refused) throw refusalOf(refused, undefined, schema.messages, t);
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
  const compile = compileChecks(components, absoluteRefs);
  const checks = new Map<RouteDefinition, RouteCheck>();
  for (const [route, schema] of described) {
    if (route.schema !== undefined) checks.set(route, compileRoute(route, schema, compile, components));
  }
  return checks;
}
