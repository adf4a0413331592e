/**
 * The types of a contract: a declared route, a group of them, and what registering,
 * the document and the client read from them. Types only: nothing here runs.
 *
 * Type-check cost: each route is reduced once to the few types a handler or a client call
 * needs (its valid inputs, its reply bodies by status), and nothing walks the whole contract
 * except the client's key list, so a contract of hundreds of routes stays cheap.
 */
import type { Context, Env } from '../core/context.ts';
import type { StandardSchemaV1 } from '../core/validate.ts';
import type { ParamKeys, PathParams } from '../routing/path-params.ts';

export type { StandardSchemaV1 } from '../core/validate.ts';

/** The methods a declared route may use. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** How a route is authenticated: becomes an OpenAPI security scheme (the app checks it, e.g. with `rove/auth`). */
export type AuthScheme = 'bearer' | 'basic' | 'jwt';

/** The validated parts of a request, each any Standard Schema (zod 4, valibot, arktype). */
export interface RequestParts {
  params?: StandardSchemaV1;
  query?: StandardSchemaV1;
  headers?: StandardSchemaV1;
  json?: StandardSchemaV1;
  form?: StandardSchemaV1;
  /** A `multipart/form-data` body read as it streams: `readMultipart()` from `rove/uploads` checks it. */
  multipart?: MultipartSpec;
}

/** A file a multipart body may carry under one field name. */
export interface FileSpec {
  /** Its largest size in bytes (over it: 413). */
  maxSize?: number;
  /** The media types it may declare (`image/png`, or `image/*`); another answers 415. */
  types?: readonly string[];
  /** Whether the body must carry it (default false). */
  required?: boolean;
}

/**
 * A `multipart/form-data` body: its text fields, checked by a schema once read, and its files by
 * name, each streamed to the handler as it arrives. In the OpenAPI document the files are
 * `format: binary` properties.
 */
export interface MultipartSpec {
  fields?: StandardSchemaV1;
  files: { readonly [name: string]: FileSpec };
}

/** Responses by status: the JSON body's schema, or `null` for a response with no body. */
export type Responses = { readonly [status: number]: StandardSchemaV1 | null };

/** What `route()` takes. */
export interface RouteSpec<M extends Method = Method, P extends string = string, Q extends RequestParts = RequestParts, R extends Responses = Responses> {
  method: M;
  path: P;
  request?: Q;
  responses: R;
  /** One scheme, or several any of which is accepted. */
  auth?: AuthScheme | readonly AuthScheme[];
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: readonly string[];
  deprecated?: boolean;
}

/** A declared route: a `RouteSpec` that `route()` checked. */
export interface Route<M extends Method = Method, P extends string = string, Q extends RequestParts = RequestParts, R extends Responses = Responses>
  extends RouteSpec<M, P, Q, R> {
  readonly request: Q;
}

/** Declared routes, grouped by name; groups nest. */
export type Contract = { readonly [name: string]: Route<any, any, any, any> | Contract };

type In<S> = S extends StandardSchemaV1 ? NonNullable<S['~standard']['types']>['input'] : never;
type Out<S> = S extends StandardSchemaV1 ? NonNullable<S['~standard']['types']>['output'] : never;

/** What `c.valid(part)` gives in a declared route's handler (a multipart body is read by the handler). */
export type ValidParts<Q> = { [K in Exclude<keyof Q & keyof RequestParts, 'multipart'>]: Out<Q[K]> };

/** The statuses of `R` whose responses carry a JSON body. */
export type JsonStatus<R> = { [S in keyof R]: R[S] extends StandardSchemaV1 ? S : never }[keyof R] & number;

/** The body a handler gives and a client receives for status `S`: what the schema accepts. */
export type ReplyBody<R, S extends keyof R> = In<R[S]>;

/**
 * `c.json` in a declared route's handler: only declared statuses, each with its declared body.
 * Without a status, the body is the declared 200's.
 */
export interface JsonReply<R> {
  <S extends JsonStatus<R>>(data: ReplyBody<R, S>, status: S, headers?: Record<string, string>): Response;
  (data: 200 extends JsonStatus<R> ? ReplyBody<R, 200> : never): Response;
}

/** The context of a declared route's handler: `c.valid(part)` typed, `c.json` checked against the declared responses. */
export type ContractContext<E extends Env, T extends Route<any, any, any, any>> = Omit<Context<E, ValidParts<T['request']>, ParamKeys<T['path']>>, 'json'> & {
  json: JsonReply<T['responses']>;
};

/** A declared route's handler. Non-JSON answers (`c.body(null, 204)`, a redirect) are plain Responses. */
export type ContractHandler<E extends Env, T extends Route<any, any, any, any>> = (c: ContractContext<E, T>) => Response | Promise<Response>;

/** Handlers for every route of a contract, by the same names. */
export type ContractHandlers<E extends Env, C extends Contract> = {
  [K in keyof C]: C[K] extends Route<any, any, any, any> ? ContractHandler<E, C[K]> : C[K] extends Contract ? ContractHandlers<E, C[K]> : never;
};

/** A contract's routes with `Pre` put before each path. */
export type Prefixed<Pre extends string, C extends Contract> = {
  [K in keyof C]: C[K] extends Route<infer M, infer P, infer Q, infer R>
    ? Route<M, P extends '/' ? Pre : `${Pre}${P}`, Q, R>
    : C[K] extends Contract
      ? Prefixed<Pre, C[K]>
      : never;
};

// ---- the client ----

/** Every route of a contract, as one union. */
export type RoutesOf<C> = C extends Route<any, any, any, any> ? C : C extends Contract ? { [K in keyof C]: RoutesOf<C[K]> }[keyof C] : never;

/** Required where the part needs a value, optional where `{}` would do, absent where undeclared. */
type Shape<T> = { [K in keyof T as T[K] extends undefined ? never : {} extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as T[K] extends undefined ? never : {} extends T[K] ? K : never]?: T[K];
};
type Optional<T> = {} extends T ? true : false;

/**
 * What a client gives for a part that travels as text (params, query, headers): the schema's input,
 * except where the schema takes anything (`z.coerce.number()` takes `unknown`): there, what it
 * gives (a number), or the text itself.
 */
type TextIn<S> = { [K in keyof In<S>]: unknown extends In<S>[K] ? (K extends keyof Out<S> ? Out<S>[K] : never) | string : In<S>[K] };

type ParamsInput<T extends Route<any, any, any, any>> = T['request']['params'] extends StandardSchemaV1
  ? TextIn<T['request']['params']>
  : string extends ParamKeys<T['path']>
    ? never
    : [ParamKeys<T['path']>] extends [never]
      ? never
      : { [K in keyof PathParams<ParamKeys<T['path']>>]: PathParams<ParamKeys<T['path']>>[K] | number };

type Inputs<T extends Route<any, any, any, any>> = Shape<{
  params: ParamsInput<T> extends never ? undefined : ParamsInput<T>;
  query: In<T['request']['query']> extends never ? undefined : TextIn<T['request']['query']>;
  headers: In<T['request']['headers']> extends never ? undefined : TextIn<T['request']['headers']>;
  json: In<T['request']['json']> extends never ? undefined : In<T['request']['json']>;
  form: In<T['request']['form']> extends never ? undefined : In<T['request']['form']>;
  multipart: T['request']['multipart'] extends MultipartSpec ? FormData : undefined;
}>;

/** What a client call takes: the declared parts, plus per-call `headers` and `init`. */
export type CallInput<T extends Route<any, any, any, any>> = Inputs<T> & { init?: RequestInit };

/** An RFC 9457 problem, as Rove's errors answer it. */
export interface Problem {
  type?: string;
  title?: string;
  status: number;
  detail?: string;
  instance?: string;
  errors?: { path: string; message: string }[];
  [extension: string]: unknown;
}

/** Statuses the app may answer with a problem without declaring them. */
export type ProblemStatus = 400 | 401 | 403 | 404 | 405 | 406 | 409 | 410 | 413 | 414 | 415 | 422 | 429 | 500 | 502 | 503 | 504;

/** What a client call resolves with: one member per declared status, then problems for the others. */
export type CallResult<R> =
  | {
      [S in keyof R & number]: {
        status: S;
        ok: `${S}` extends `2${string}` ? true : false;
        data: R[S] extends StandardSchemaV1 ? In<R[S]> : null;
        response: Response;
      };
    }[keyof R & number]
  | { status: Exclude<ProblemStatus, keyof R>; ok: false; data: Problem; response: Response };

/** One client call. */
export type Call<T> =
  T extends Route<any, any, any, any>
    ? Optional<Inputs<T>> extends true
      ? (input?: CallInput<T>) => Promise<CallResult<T['responses']>>
      : (input: CallInput<T>) => Promise<CallResult<T['responses']>>
    : never;

/** The typed client of a contract: one call per route, named `'METHOD /path'`. */
export type Client<C> = {
  [T in RoutesOf<C> as T extends { method: infer M extends string; path: infer P extends string } ? `${M} ${P}` : never]: Call<T>;
};
