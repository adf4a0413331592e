// The Deno adapters' `respond`: the shared CheckedResponse, with a body-less answer's headers
// given in the init.

import { type HeaderRecord, toHeadersInit } from '../../src/response.ts';
import { CheckedResponse, respondChecked } from '../shared/checked-response.ts';

/**
 * `respondChecked`, except that a response without a body (a 204 preflight, a 304, a redirect)
 * gets its headers in the init. Deno copies an init's headers straight into the response's header
 * list; setting them after construction first builds a `Headers` object and then looks each name
 * up in the list before setting it. With a body, setting after stays the cheaper way on Deno: an
 * init with more than a content type makes Deno build a native response at once
 * (docs/design-notes.md, "Headers set after construction").
 *
 * @example
 * respondDeno(null, 204, { 'access-control-allow-origin': 'https://app.example', vary: 'Origin' });
 */
export function respondDeno(body: string | Uint8Array | null, status: number, record: HeaderRecord): Response {
  if (body !== null) return respondChecked(body, status, record);
  for (const _ in record) return new CheckedResponse(null, { status, headers: toHeadersInit(record) });
  return new CheckedResponse(null, status === 200 ? undefined : { status });
}
