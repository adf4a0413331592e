import { isFormType, isJsonType, readForm } from '../http/form-body.ts';
import { type Handler, NEXT_DONE, type Next } from './compose.ts';
import { type Context, state } from './context.ts';
import { BodyError, HttpError } from './errors.ts';

/** The Standard Schema v1 interface (zod 4, valibot and arktype implement it). */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}
type StandardResult<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<StandardIssue> };
interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

export type InferOutput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['output'];

export type ValidationTarget = 'json' | 'query' | 'params' | 'form';

/** One failed rule, by path: `address.zip`, `tags.3`; the empty path is the value itself. */
export interface ValidationIssue {
  path: string;
  message: string;
}

function read(c: Context<any, any>, target: ValidationTarget): unknown {
  switch (target) {
    case 'json':
      // A cross-site form or a fetch without preflight can only send text/plain or a form type: refuse them.
      if (!isJsonType(c.req.header('content-type') ?? null))
        throw new BodyError('unsupported-type', 415, 'Expected a JSON body (Content-Type: application/json)');
      return c.req.json();
    case 'query':
      return c.req.query();
    case 'params':
      return c.req.param();
    case 'form':
      if (!isFormType(c.req.header('content-type') ?? null)) throw new BodyError('unsupported-type', 415, 'Expected a form body (urlencoded or multipart)');
      return readForm(c.req);
  }
}

/** What each validate() middleware checks, for tooling that describes routes (rove/contract's openapi()). */
const checks = new WeakMap<object, { target: ValidationTarget; schema: StandardSchemaV1 }>();

/**
 * The target and schema a `validate()` middleware checks; undefined for any other handler.
 *
 * @example
 * for (const h of app.routeList[0].handlers) console.log(validation(h)?.target);
 */
/**
 * Record a validated value for `c.valid(target)`: for declared routes (rove/contract), which
 * validate parts `validate()` has no target for (headers). The core keeps it; nothing else may.
 */
export function recordValid(c: Context<any, any>, target: string, value: unknown): void {
  state.setValid(c, target, value);
}

export function validation(handler: unknown): { target: ValidationTarget; schema: StandardSchemaV1 } | undefined {
  return typeof handler === 'function' ? checks.get(handler) : undefined;
}

function issuePath(issue: StandardIssue): string {
  return (issue.path ?? []).map((p) => String(typeof p === 'object' && p !== null ? p.key : p)).join('.');
}

/**
 * Middleware that validates part of the request against any Standard Schema.
 * The handler reads the typed result with `c.valid(target)`. A failure answers
 * 400 problem+json with `errors: [{ path, message }]`. `json` and `form` check the
 * Content-Type first: anything else answers 415 before the body is read.
 *
 * @example
 * app.post('/users', validate('json', z.object({ name: z.string() })), (c) => c.json(c.valid('json'), 201));
 */
export function validate<T extends ValidationTarget, S extends StandardSchemaV1>(target: T, schema: S): Handler<any, { [K in T]: InferOutput<S> }> {
  if (!schema || typeof schema['~standard']?.validate !== 'function') {
    throw new TypeError('validate() needs a Standard Schema (zod 4, valibot, arktype, …)');
  }
  const check = schema['~standard'].validate;
  // Promises only where the work is asynchronous: reading a body, or a schema that validates
  // asynchronously. A query or params check with a synchronous schema makes none.
  const apply = (c: Context<any, any>, result: StandardResult<unknown>, next: Next): unknown => {
    if (result.issues) {
      const errors: ValidationIssue[] = result.issues.map((i) => ({ path: issuePath(i), message: i.message }));
      const message = `Invalid ${target}`;
      throw target === 'json' || target === 'form'
        ? new BodyError('invalid', 400, message, { details: { errors } })
        : new HttpError(400, message, { details: { errors } });
    }
    state.setValid(c, target, result.value);
    const inner = next();
    return inner === NEXT_DONE ? undefined : inner;
  };
  const validateInput = (c: Context<any, any>, input: unknown, next: Next): unknown => {
    const result = check(input);
    return result instanceof Promise ? result.then((r) => apply(c, r, next)) : apply(c, result, next);
  };
  const middleware: Handler<any, any> = (c, next) => {
    const input = read(c, target);
    return input instanceof Promise ? input.then((value) => validateInput(c, value, next)) : validateInput(c, input, next);
  };
  checks.set(middleware, { target, schema });
  return middleware;
}
