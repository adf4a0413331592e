// API contracts: declare a route once; register it with validation and checked replies,
// describe it as OpenAPI 3.1, and call it through a typed client.

export { type ClientOptions, createClient, fillPath } from './client.ts';
export { declaredRoute, type ImplementOptions, implement } from './implement.ts';
export { type OpenAPIDocument, type OpenAPIOptions, openapi, openapiHandler, openapiPaths } from './openapi.ts';
export { type ReferenceOptions, referenceHandler, referencePage, type ScriptSource, scriptHandler } from './reference.ts';
export { group, isRoute, route } from './route.ts';
export type {
  AuthScheme,
  Call,
  CallInput,
  CallResult,
  Client,
  Contract,
  ContractContext,
  ContractHandler,
  ContractHandlers,
  JsonReply,
  Method,
  Prefixed,
  Problem,
  RequestParts,
  Responses,
  Route,
  RouteSpec,
  RoutesOf,
  ValidParts,
} from './types.ts';
