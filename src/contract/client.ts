import type { CallResult, Client } from './types.ts';

/** What `createClient()` takes besides the base URL. */
export interface ClientOptions {
  /** The fetch to call: the global one by default; `(input, init) => app.request(input, init)` in tests. */
  fetch?: (input: string, init: RequestInit) => Response | Promise<Response>;
  /** Headers for every call (a call's own `headers` and `init.headers` win). */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
}

interface Input {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  json?: unknown;
  form?: Record<string, unknown>;
  multipart?: FormData;
  init?: RequestInit;
}

/** The path of a pattern with its params filled in, each segment percent-encoded. */
export function fillPath(pattern: string, params: Record<string, unknown> = {}): string {
  const out: string[] = [];
  // A constraint `{...}` may hold "/": skip it whole when splitting.
  const parts = pattern.replace(/\{(?:\\.|[^{}\\]|\{[^{}]*\})*\}/g, '').split('/');
  for (const part of parts.slice(1)) {
    if (part.startsWith(':') || part.startsWith('*')) {
      const optional = part.endsWith('?');
      const name = part.startsWith('*') ? part.slice(1) || '*' : part.slice(1, optional ? -1 : undefined);
      const value = params[name];
      if (value === undefined || value === null) {
        if (optional) continue;
        throw new TypeError(`Missing path param "${name}" for ${pattern}`);
      }
      const text = String(value);
      // A wildcard spans segments: keep its "/", encode the rest.
      out.push(part.startsWith('*') ? text.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(text));
    } else {
      out.push(part);
    }
  }
  return `/${out.join('/')}`;
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, String(v));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function formBody(form: Record<string, unknown>): URLSearchParams | FormData {
  const values = Object.entries(form).filter(([, v]) => v !== undefined);
  if (!values.some(([, v]) => typeof Blob !== 'undefined' && v instanceof Blob)) {
    const body = new URLSearchParams();
    for (const [key, value] of values) for (const v of Array.isArray(value) ? value : [value]) body.append(key, String(v));
    return body;
  }
  const body = new FormData();
  for (const [key, value] of values) for (const v of Array.isArray(value) ? value : [value]) body.append(key, v instanceof Blob ? v : String(v));
  return body;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 304) return null;
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  if (text === '') return null;
  return /[/+]json\b/i.test(type) ? JSON.parse(text) : text;
}

/**
 * A typed client of a contract: one call per declared route, named `'METHOD /path'` as
 * declared (`client['GET /v1/users/:id{[0-9]+}']`). Inputs are typed from the route's schemas,
 * path params are percent-encoded, and the result is a union by status: the declared body for
 * a declared status, a problem (RFC 9457) for the others. No runtime dependency: it needs
 * only `fetch`, and the contract only as a type.
 *
 * @example
 * const client = createClient<typeof api>('https://api.example.com', { headers: { authorization: `Bearer ${token}` } });
 * const res = await client['GET /v1/users/:id{[0-9]+}']({ params: { id: 1 } });
 * if (res.status === 200) console.log(res.data.name);
 */
export function createClient<C>(baseUrl: string | URL, options: ClientOptions = {}): Client<C> {
  const base = String(baseUrl).replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  const call = async (method: string, pattern: string, input: Input = {}): Promise<CallResult<Record<number, null>>> => {
    const shared = typeof options.headers === 'function' ? await options.headers() : (options.headers ?? {});
    const headers = new Headers(shared);
    for (const [name, value] of Object.entries(input.headers ?? {})) if (value !== undefined) headers.set(name, String(value));
    new Headers(input.init?.headers).forEach((value, name) => headers.set(name, value));
    let body: BodyInit | undefined;
    if (input.json !== undefined) {
      body = JSON.stringify(input.json);
      headers.set('content-type', 'application/json');
    } else if (input.multipart !== undefined) {
      body = input.multipart; // fetch writes the boundary into the Content-Type
    } else if (input.form !== undefined) {
      body = formBody(input.form);
    }
    const url = base + fillPath(pattern, input.params) + queryString(input.query);
    const response = await doFetch(url, { ...input.init, method, headers, body });
    const data = await readBody(response);
    return { status: response.status, ok: response.ok, data, response } as CallResult<Record<number, null>>;
  };
  return new Proxy({} as Client<C>, {
    get(_target, key) {
      if (typeof key !== 'string') return undefined;
      const space = key.indexOf(' ');
      if (space < 1 || key[space + 1] !== '/') return undefined;
      return (input?: Input) => call(key.slice(0, space), key.slice(space + 1), input);
    },
  });
}
