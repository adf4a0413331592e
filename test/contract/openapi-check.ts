// Checks of an OpenAPI 3.1 document: `validateOpenAPI` runs a real validator
// (@apidevtools/swagger-parser: the OpenAPI 3.1 JSON Schema, then its own semantic rules, such
// as path params declared and operationIds unique); `checkOpenAPI` is a structural check of the
// rules Rove's documents must keep, some of which the schema does not state (every $ref resolves,
// a path param per template). Each returns the broken rules; empty when the document passes.
import SwaggerParser from '@apidevtools/swagger-parser';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const LOCATIONS = ['query', 'header', 'path', 'cookie'];
const SCHEME_TYPES = ['apiKey', 'http', 'mutualTLS', 'oauth2', 'openIdConnect'];

type Json = any;

function refs(value: Json, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refs(v, out);
  else if (value && typeof value === 'object') {
    if (typeof value.$ref === 'string') out.push(value.$ref);
    for (const v of Object.values(value)) refs(v, out);
  }
  return out;
}

function pointer(doc: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<Json>((node, key) => (node && typeof node === 'object' ? node[key] : undefined), doc);
}

export function checkOpenAPI(doc: Json): string[] {
  const errors: string[] = [];
  const fail = (where: string, why: string) => errors.push(`${where}: ${why}`);
  if (typeof doc?.openapi !== 'string' || !/^3\.1\.\d+$/.test(doc.openapi)) fail('openapi', 'must be 3.1.x');
  if (typeof doc?.info?.title !== 'string' || typeof doc?.info?.version !== 'string') fail('info', 'needs title and version strings');
  for (const s of doc.servers ?? []) if (typeof s.url !== 'string') fail('servers', 'each server needs a url');
  if (!doc.paths && !doc.components && !doc.webhooks) fail('document', 'needs paths, components or webhooks');
  const schemes = doc.components?.securitySchemes ?? {};
  for (const [name, s] of Object.entries<Json>(schemes)) {
    if (!SCHEME_TYPES.includes(s.type)) fail(`securitySchemes.${name}`, `bad type ${s.type}`);
    if (s.type === 'http' && typeof s.scheme !== 'string') fail(`securitySchemes.${name}`, 'http needs scheme');
  }
  const operationIds = new Set<string>();
  const shapes = new Map<string, string>();
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    if (!path.startsWith('/')) fail(path, 'a path starts with /');
    const shape = path.replace(/\{[^}]+\}/g, '{}');
    if (shapes.has(shape)) fail(path, `same template as ${shapes.get(shape)}`);
    shapes.set(shape, path);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    if (new Set(templated).size !== templated.length) fail(path, 'a template name repeats');
    for (const [key, op] of Object.entries<Json>(item)) {
      if (!METHODS.includes(key)) {
        if (!['summary', 'description', 'servers', 'parameters', '$ref'].includes(key)) fail(path, `unknown key ${key}`);
        continue;
      }
      const where = `${key.toUpperCase()} ${path}`;
      const params: Json[] = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      const seen = new Set<string>();
      for (const p of params) {
        if (typeof p.name !== 'string' || !LOCATIONS.includes(p.in)) fail(where, `bad parameter ${JSON.stringify(p)}`);
        if (seen.has(`${p.in}:${p.name}`)) fail(where, `parameter ${p.name} in ${p.in} twice`);
        seen.add(`${p.in}:${p.name}`);
        if (p.in === 'path' && p.required !== true) fail(where, `path parameter ${p.name} must be required`);
        if (p.in === 'path' && !templated.includes(p.name)) fail(where, `path parameter ${p.name} is not in the path`);
        if ((p.schema === undefined) === (p.content === undefined)) fail(where, `parameter ${p.name} needs schema or content, not both`);
        if (p.schema?.pattern !== undefined) {
          try {
            new RegExp(p.schema.pattern, 'u');
          } catch {
            fail(where, `parameter ${p.name} has a pattern that is not a regex`);
          }
        }
      }
      for (const name of templated) if (!params.some((p) => p.in === 'path' && p.name === name)) fail(where, `{${name}} has no path parameter`);
      if (op.operationId !== undefined) {
        if (operationIds.has(op.operationId)) fail(where, `operationId ${op.operationId} repeats`);
        operationIds.add(op.operationId);
      }
      if (op.requestBody && (typeof op.requestBody.content !== 'object' || Object.keys(op.requestBody.content).length === 0))
        fail(where, 'requestBody needs content');
      const responses = Object.entries<Json>(op.responses ?? {});
      if (responses.length === 0) fail(where, 'needs at least one response');
      for (const [status, res] of responses) {
        if (status !== 'default' && !/^[1-5](?:\d\d|XX)$/.test(status)) fail(where, `bad status ${status}`);
        if (typeof res.description !== 'string') fail(`${where} ${status}`, 'a response needs a description');
        for (const type of Object.keys(res.content ?? {})) if (!/^[\w.+-]+\/[\w.+*-]+$/.test(type)) fail(`${where} ${status}`, `bad media type ${type}`);
      }
      for (const req of op.security ?? doc.security ?? [])
        for (const name of Object.keys(req)) if (!(name in schemes)) fail(where, `security ${name} is not declared`);
    }
  }
  for (const ref of refs(doc)) if (pointer(doc, ref) === undefined) fail('$ref', `${ref} does not resolve`);
  return errors;
}

/** SwaggerParser.validate on a deep copy (it dereferences in place), as a list of messages. */
export async function validateOpenAPI(doc: Json): Promise<string[]> {
  try {
    await SwaggerParser.validate(structuredClone(doc));
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}

/** Both: the validator's messages, then the structural checker's. */
export async function openAPIErrors(doc: Json): Promise<string[]> {
  return [...(await validateOpenAPI(doc)), ...checkOpenAPI(doc)];
}
