// The shop API's TypeScript types, as openapi-typescript writes them from its OpenAPI document.
// paths.gen.ts is that output, committed so the client calls type-check with the project;
// the real-clients test writes it again and fails when it differs.
import openapiTS, { astToString } from 'openapi-typescript';
import { openapi } from '../../../src/contract/index.ts';
import { makeApp } from './app.ts';

export const INFO = { title: 'Shop', version: '1.0.0' };

/** The document the app serves at /openapi.json. */
export function shopDocument() {
  return openapi(makeApp(), { info: INFO });
}

/** openapi-typescript's output for the document. */
export async function generatedTypes(): Promise<string> {
  const ast = await openapiTS(shopDocument() as never);
  return `// Written by openapi-typescript from the shop API's OpenAPI document: test/contract/real-clients/types.ts.\n${astToString(ast)}`;
}
