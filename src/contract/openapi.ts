import type { App } from '../core/app.ts';
import type { Handler } from '../core/compose.ts';
import { type ValidationTarget, validation } from '../core/validate.ts';
import { parseRoute, routeVariants, type Segment } from '../routing/pattern.ts';
import { declaredRoute } from './implement.ts';
import { authSchemes, routesOf } from './route.ts';
import type { Contract, MultipartSpec, Route, StandardSchemaV1 } from './types.ts';

type JsonSchema = Record<string, unknown>;

/** What `openapi()` takes besides the routes. */
export interface OpenAPIOptions {
  info: { title: string; version: string; description?: string; [key: `x-${string}`]: unknown };
  servers?: { url: string; description?: string }[];
  /**
   * A JSON Schema for a schema without the Standard JSON Schema interface (`~standard.jsonSchema`,
   * which zod 4 has): e.g. `toJsonSchema` from `@valibot/to-json-schema`. Without one, such a
   * schema is described as `{}` (anything).
   */
  jsonSchema?: (schema: StandardSchemaV1) => JsonSchema | undefined;
}

/** An OpenAPI 3.1 document, as plain JSON. */
export type OpenAPIDocument = {
  openapi: '3.1.0';
  info: OpenAPIOptions['info'];
  servers?: OpenAPIOptions['servers'];
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes?: Record<string, JsonSchema> };
};

const PROBLEM: JsonSchema = {
  type: 'object',
  description: 'An RFC 9457 problem',
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string' },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } }, required: ['path', 'message'] },
    },
  },
  required: ['status'],
};
const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };
const SECURITY: Record<string, JsonSchema> = {
  bearer: { type: 'http', scheme: 'bearer' },
  basic: { type: 'http', scheme: 'basic' },
  jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
};
const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

const OPERATIONS = new Set(['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH']);

/** A plain route's request parts, from the `validate()` middleware among its handlers. */
function plainRequest(handlers: readonly unknown[]): Partial<Record<ValidationTarget, StandardSchemaV1>> {
  const parts: Partial<Record<ValidationTarget, StandardSchemaV1>> = {};
  for (const h of handlers) {
    const check = validation(h);
    if (check) parts[check.target] = check.schema;
  }
  return parts;
}

function toJsonSchema(schema: StandardSchemaV1, options: OpenAPIOptions): JsonSchema {
  const std = schema['~standard'] as StandardSchemaV1['~standard'] & { jsonSchema?: { input(o: { target: string }): JsonSchema } };
  let out: JsonSchema | undefined;
  if (std.jsonSchema) {
    try {
      out = std.jsonSchema.input({ target: 'draft-2020-12' });
    } catch {
      out = undefined; // a type JSON Schema cannot express (a transform, a date): fall through
    }
  }
  out ??= options.jsonSchema?.(schema);
  if (!out) return {};
  // OpenAPI 3.1 schemas are draft 2020-12 by default: no `$schema` needed in each one.
  const { $schema: _, ...rest } = out;
  return rest;
}

/**
 * A multipart body: the fields' schema, with each declared file as a binary string property
 * (OpenAPI 3.1's form for file uploads) and its allowed types as the part's encoding.
 */
function multipartBody(spec: MultipartSpec, options: OpenAPIOptions): Record<string, unknown> {
  const fields = spec.fields ? toJsonSchema(spec.fields, options) : {};
  const props: Record<string, JsonSchema> = { ...((fields.properties ?? {}) as Record<string, JsonSchema>) };
  const required = new Set((fields.required ?? []) as string[]);
  const encoding: Record<string, { contentType: string }> = {};
  for (const [name, file] of Object.entries(spec.files)) {
    props[name] = { type: 'string', format: 'binary', ...(file.maxSize ? { maxLength: file.maxSize } : {}) };
    if (file.required) required.add(name);
    if (file.types?.length) encoding[name] = { contentType: file.types.join(', ') };
  }
  const schema: JsonSchema = { type: 'object', properties: props, ...(required.size ? { required: [...required] } : {}) };
  return { required: true, content: { 'multipart/form-data': { schema, ...(Object.keys(encoding).length ? { encoding } : {}) } } };
}

/** An object schema's properties, each with whether it is required. */
function properties(schema: JsonSchema): { name: string; schema: JsonSchema; required: boolean }[] {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => ({ name, schema: s, required: required.has(name) }));
}

/**
 * A Rove pattern in OpenAPI's path syntax, one per concrete variant (an optional param makes two
 * paths: OpenAPI path params are always required), with each param's pattern.
 */
export function openapiPaths(pattern: string): { path: string; params: { name: string; pattern?: string; wildcard?: boolean }[] }[] {
  return routeVariants(parseRoute(pattern)).map((segments: Segment[]) => {
    const params: { name: string; pattern?: string; wildcard?: boolean }[] = [];
    const parts = segments.map((s) => {
      if (s.kind === 'static') return s.text.replace(/[{}]/g, encodeURIComponent);
      const name = s.name === '*' ? 'wildcard' : s.name;
      params.push(s.kind === 'wildcard' ? { name, wildcard: true } : s.re ? { name, pattern: `^(?:${s.source})$` } : { name });
      return `{${name}}`;
    });
    return { path: `/${parts.join('/')}`, params };
  });
}

function operation(route: Route, params: ReturnType<typeof openapiPaths>[number]['params'], options: OpenAPIOptions): Record<string, unknown> {
  const { request } = route;
  const declared = request.params ? properties(toJsonSchema(request.params, options)) : [];
  const parameters: Record<string, unknown>[] = params.map((p) => {
    const own = declared.find((d) => d.name === p.name)?.schema ?? { type: 'string' };
    // The pattern is matched on the raw segment, before the schema (which may coerce) sees it. On a
    // number (z.coerce.number()) a pattern says nothing in JSON Schema, and turning the type into a
    // string would drop its bounds: the number is described, and a segment the pattern refuses is
    // one of the router's 404s (the `default` problem+json).
    const numeric = own.type === 'integer' || own.type === 'number';
    const schema = p.pattern && !numeric ? { ...own, ...(own.type === 'string' ? {} : { type: 'string' }), pattern: p.pattern } : own;
    return {
      name: p.name,
      in: 'path',
      required: true,
      schema,
      ...(p.wildcard ? { description: 'The rest of the path (may hold "/")', allowReserved: true } : {}),
    };
  });
  for (const [part, where] of [
    ['query', 'query'],
    ['headers', 'header'],
  ] as const) {
    const schema = request[part];
    if (!schema) continue;
    for (const p of properties(toJsonSchema(schema, options))) parameters.push({ name: p.name, in: where, required: p.required, schema: p.schema });
  }
  const op: Record<string, unknown> = {};
  if (route.operationId) op.operationId = route.operationId;
  if (route.summary) op.summary = route.summary;
  if (route.description) op.description = route.description;
  if (route.tags) op.tags = [...route.tags];
  if (route.deprecated) op.deprecated = true;
  if (parameters.length) op.parameters = parameters;
  if (request.json) op.requestBody = { required: true, content: { 'application/json': { schema: toJsonSchema(request.json, options) } } };
  if (request.form) {
    const schema = toJsonSchema(request.form, options);
    op.requestBody = { required: true, content: { 'application/x-www-form-urlencoded': { schema }, 'multipart/form-data': { schema } } };
  }
  if (request.multipart) op.requestBody = multipartBody(request.multipart, options);
  const responses: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(route.responses)) {
    const description = REASONS[Number(status)] ?? `Status ${status}`;
    responses[status] = schema ? { description, content: { 'application/json': { schema: toJsonSchema(schema, options) } } } : { description };
  }
  const problem = (status: number, description: string) => {
    responses[status] ??= { description, content: { 'application/problem+json': { schema: PROBLEM_REF } } };
  };
  if (Object.keys(request).length) problem(400, 'The request does not fit its schema');
  if (request.json || request.form || request.multipart) problem(415, 'The body is not of the declared media type');
  if (request.multipart) problem(413, 'A file, a field or the whole body is over its limit');
  const schemes = authSchemes(route);
  if (schemes.length) {
    op.security = schemes.map((s) => ({ [s]: [] }));
    problem(401, 'Missing or bad credentials');
  }
  responses.default = { description: 'An error', content: { 'application/problem+json': { schema: PROBLEM_REF } } };
  op.responses = responses;
  return op;
}

/**
 * The OpenAPI 3.1 document of declared routes: of a contract, or of an app's routes (mounted
 * apps included), declared ones with all they declare, plain ones with their path params and
 * what their `validate()` middleware checks. Schemas come from each schema's Standard JSON Schema interface (zod 4)
 * or `options.jsonSchema`; path patterns become OpenAPI paths with their constraints as patterns;
 * declared auth becomes security schemes; validation and auth failures are problem+json responses.
 *
 * @example
 * const doc = openapi(api, { info: { title: 'Users', version: '1.0.0' }, servers: [{ url: 'https://api.example.com' }] });
 */
export function openapi(source: App<any> | Contract | Route, options: OpenAPIOptions): OpenAPIDocument {
  const paths: OpenAPIDocument['paths'] = {};
  const used = new Set<string>();
  const add = (route: Route, plain: boolean) => {
    for (const variant of openapiPaths(route.path)) {
      const item = (paths[variant.path] ??= {});
      const method = route.method.toLowerCase();
      if (!plain || item[method] === undefined) item[method] = operation(route, variant.params, options);
    }
    for (const s of authSchemes(route)) used.add(s);
  };
  if (typeof (source as App<any>).fetch === 'function' && 'routeList' in source) {
    for (const { method, path, handlers } of (source as App<any>).routeList) {
      // `all` routes and methods OpenAPI has no field for are left out.
      if (!OPERATIONS.has(method)) continue;
      const route = declaredRoute(handlers);
      if (route) add({ ...route, path }, false);
      else add({ method, path, request: plainRequest(handlers), responses: {} } as unknown as Route, true);
    }
  } else {
    for (const { route } of routesOf(source as Contract | Route)) add(route, false);
  }
  const securitySchemes = Object.fromEntries([...used].map((s) => [s, SECURITY[s]]));
  return {
    openapi: '3.1.0',
    info: options.info,
    ...(options.servers ? { servers: options.servers } : {}),
    paths,
    components: { schemas: { Problem: PROBLEM }, ...(used.size ? { securitySchemes } : {}) },
  };
}

/**
 * A handler that answers the document as JSON, built at its first request (so it holds
 * every route registered by then) and kept. No file system: it works on Workers.
 *
 * @example
 * app.get('/openapi.json', openapiHandler(app, { info: { title: 'Users', version: '1.0.0' } }));
 */
export function openapiHandler(source: App<any> | Contract | Route, options: OpenAPIOptions): Handler {
  let body: string | undefined;
  return (c) => {
    body ??= JSON.stringify(openapi(source, options));
    return c.body(body, 200, { 'content-type': 'application/json' });
  };
}
