// The responses adapters build for the context's helpers, from a header record the context already
// checked (`checkHeader`), and the one check every adapter's `finish` makes before the runtime
// writes a response: skipped for such a response nobody touched since it was built, made for any
// other (Deno panics on a control character in a header value, Bun writes it as is, node:http
// throws). Deno and Bun build a CheckedResponse (below); Node its own light NodeResponse. Both
// answer BUILT with whether they are still as built.

import type { HeaderRecord } from '../../src/core/response.ts';
import { checkHeaders } from '../../src/http/headers.ts';

const headersOf = Object.getOwnPropertyDescriptor(Response.prototype, 'headers')!.get! as (this: Response) => Headers;
// One init per content type for a 200 with only that header: no header object per response.
const INITS = new Map<string, ResponseInit>();
const MAX_INITS = 64;

/** The key under which an adapter's own response answers true while its headers are as built. */
export const BUILT: unique symbol = Symbol('rove.built');

/** A helper's response on Deno and Bun. */
export class CheckedResponse extends Response {
  #touched = false;

  override get headers(): Headers {
    this.#touched = true;
    return super.headers;
  }

  /** False once its headers were read: they may have changed since it was built. */
  get [BUILT](): boolean {
    return !this.#touched;
  }
}

/**
 * The binding's `respond`: a CheckedResponse from a record of checked names and values.
 *
 * @example
 * const res = respondChecked('{"ok":true}', 200, { 'content-type': 'application/json' });
 */
export function respondChecked(body: string | Uint8Array | null, status: number, record: HeaderRecord): Response {
  let type: string | undefined;
  let count = 0;
  for (const k in record) {
    count++;
    if (k === 'content-type') type = record[k] as string;
  }
  if (status === 200 && count === 1 && typeof type === 'string') {
    let init = INITS.get(type);
    if (init === undefined) {
      init = { headers: { 'content-type': type } };
      if (INITS.size < MAX_INITS) INITS.set(type, init);
    }
    return new CheckedResponse(body as BodyInit | null, init);
  }
  // Any other status or header set: set on the built response.
  return respondHeadersAfter(body, status, record);
}

/**
 * Bun's binding `respond`: the same CheckedResponse, its headers set after it is built. On Bun a
 * Response built with a headers init costs more than one whose headers are set afterwards (the
 * figures are in docs/design-notes.md); on Deno it is the other way round, so Deno keeps respondChecked.
 *
 * @example
 * const res = respondHeadersAfter('ok', 200, { 'content-type': 'text/plain;charset=UTF-8' });
 */
export function respondHeadersAfter(body: string | Uint8Array | null, status: number, record: HeaderRecord): Response {
  const res = new CheckedResponse(body as BodyInit | null, status === 200 ? undefined : { status });
  let headers: Headers | undefined;
  for (const k in record) {
    const v = record[k];
    headers ??= headersOf.call(res); // the native getter: the response stays as built
    if (typeof v === 'string') headers.set(k, v);
    else for (let i = 0; i < v.length; i++) headers.append(k, v[i]);
  }
  return res;
}

/**
 * The check in every adapter's `finish`: throws (inside the app's error boundary, so a 500 through
 * onError) when `res` has a header the runtime could not send, unless the adapter built `res` and
 * nobody touched its headers since.
 *
 * @example
 * checkUnlessBuilt(new Response('x', { headers: { 'x-a': 'a\u0001b' } })); // throws TypeError
 */
export function checkUnlessBuilt(res: Response): Response {
  if ((res as { [BUILT]?: boolean })[BUILT] !== true) checkHeaders(res);
  return res;
}
