// The requests `rove parity` sends: from an .http file (the REST Client / JetBrains format),
// a JSON list, or the app's route table.
import { parseRoute } from '../../../src/routing/pattern.ts';

export interface ParityRequest {
  /** How the request is named in the report: `GET /users/1` unless the file names it. */
  name: string;
  method: string;
  /** Path and query, sent to every runtime's own origin. */
  path: string;
  headers: [string, string][];
  body?: string;
  /**
   * Values to take from this request's answer, per runtime, for `{{name}}` in later requests:
   * group 1 of `pattern` in the body, or the whole value of a response header.
   */
  captures?: Capture[];
}

export type Capture = { name: string; pattern: string } | { name: string; header: string };

/** `@capture csrf /name="_csrf" value="([^"]+)"/` or `@capture tag header etag`. */
function parseCapture(text: string): Capture | undefined {
  const re = /^@capture\s+([\w.-]+)\s+\/(.+)\/\s*$/.exec(text);
  if (re) return { name: re[1], pattern: re[2] };
  const header = /^@capture\s+([\w.-]+)\s+header\s+([\w-]+)\s*$/i.exec(text);
  if (header) return { name: header[1], header: header[2].toLowerCase() };
  return undefined;
}

const METHOD = /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS|CONNECT|TRACE|[A-Z]+)\s+(\S+)(?:\s+HTTP\/[\d.]+)?\s*$/;

/** `http://localhost:8000/a?b` or `{{host}}/a?b` or `/a?b` → `/a?b`. */
function pathOf(target: string): string {
  const t = target.replace(/^\{\{\s*\w+\s*\}\}/, '');
  if (/^https?:\/\//i.test(t)) {
    const u = new URL(t);
    return u.pathname + u.search;
  }
  return t.startsWith('/') ? t : `/${t}`;
}

function request(method: string, target: string, headers: [string, string][], body: string | undefined, name?: string): ParityRequest {
  const path = pathOf(target);
  return { name: name ?? `${method} ${path}`, method, path, headers, ...(body !== undefined && body !== '' ? { body } : {}) };
}

/**
 * Parse an .http file: requests separated by `###` lines (text after `###` names the request),
 * each a request line (`METHOD URL [HTTP/1.1]`, or a bare URL for GET), header lines, a blank
 * line, then the body. `#` and `//` lines are comments; `@name = value` defines `{{name}}`.
 * The scheme and host of URLs are ignored: every request goes to each runtime's own server.
 *
 * @example
 * parseHttpFile('GET /users/1\nAccept: application/json\n\n###\nPOST /echo\n\n{"a":1}\n');
 */
export function parseHttpFile(text: string): ParityRequest[] {
  const vars: Record<string, string> = {};
  const out: ParityRequest[] = [];
  const blocks: { name?: string; lines: string[] }[] = [{ lines: [] }];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const sep = /^###\s*(.*)$/.exec(line);
    if (sep) blocks.push({ lines: [], ...(sep[1].trim() ? { name: sep[1].trim() } : {}) });
    else blocks.at(-1)!.lines.push(line);
  }
  const subst = (s: string) => s.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (m, n: string) => vars[n] ?? m);
  for (const block of blocks) {
    let i = 0;
    let name = block.name;
    const captures: Capture[] = [];
    const lines = block.lines;
    const directive = (l: string) => {
      const text = l.replace(/^(#|\/\/)\s*/, '');
      const capture = parseCapture(text);
      if (capture) captures.push(capture);
      else if (/^@name\s+/.test(text)) name = text.replace(/^@name\s+/, '');
    };
    // Leading blank lines, comments and variables.
    for (; i < lines.length; i++) {
      const l = lines[i].trim();
      const v = /^@([\w.-]+)\s*=\s*(.*)$/.exec(l);
      if (v) vars[v[1]] = subst(v[2].trim());
      else if (l.startsWith('#') || l.startsWith('//')) directive(l);
      else if (l === '') continue;
      else break;
    }
    if (i >= lines.length) continue;
    const first = subst(lines[i].trim());
    const m = METHOD.exec(first);
    const [method, target] = m ? [m[1], m[2]] : ['GET', first.split(/\s+/)[0]];
    const headers: [string, string][] = [];
    for (i++; i < lines.length && lines[i].trim() !== ''; i++) {
      const l = lines[i].trim();
      if (l.startsWith('#') || l.startsWith('//')) {
        directive(l);
        continue;
      }
      const colon = l.indexOf(':');
      if (colon > 0) headers.push([l.slice(0, colon).trim(), subst(l.slice(colon + 1).trim())]);
    }
    const bodyLines = lines.slice(i + 1);
    while (bodyLines.length > 0 && bodyLines.at(-1)!.trim() === '') bodyLines.pop();
    const req = request(method, target, headers, bodyLines.length ? subst(bodyLines.join('\n')) : undefined, name);
    out.push(captures.length ? { ...req, captures } : req);
  }
  return out;
}

/**
 * Parse a JSON list: `[{ "method": "GET", "path": "/", "headers": { "accept": "text/html" },
 * "body": "text" or any JSON value (sent as JSON), "name": "optional" }]`; `url` may stand for `path`.
 */
export function parseJsonRequests(text: string): ParityRequest[] {
  const list = JSON.parse(text) as unknown;
  if (!Array.isArray(list)) throw new Error('a JSON request list is an array of { method, path, headers, body }');
  return list.map((item: Record<string, unknown>, n) => {
    const target = item.path ?? item.url;
    if (typeof target !== 'string') throw new Error(`request ${n + 1}: no "path"`);
    const method = typeof item.method === 'string' ? item.method.toUpperCase() : 'GET';
    const headers: [string, string][] = Object.entries((item.headers ?? {}) as Record<string, string>).map(([k, v]) => [k, String(v)]);
    let body: string | undefined;
    if (typeof item.body === 'string') body = item.body;
    else if (item.body !== undefined) {
      body = JSON.stringify(item.body);
      if (!headers.some(([k]) => k.toLowerCase() === 'content-type')) headers.push(['content-type', 'application/json']);
    }
    return request(method, target, headers, body, typeof item.name === 'string' ? item.name : undefined);
  });
}

const SAMPLES = ['1', '42', 'sample', 'a', 'abc', 'x1', '2024-01-01', 'A', '0', 'sample.txt', '00000000-0000-4000-8000-000000000000'];

/** A value for a param that its constraint accepts (the first of a few usual shapes). */
export function sampleParam(re: RegExp | null): string {
  if (re === null) return '1';
  for (const s of SAMPLES) if (re.test(s)) return s;
  return '1';
}

/** A concrete path for a route pattern: params filled with values that fit their constraints. */
export function samplePath(pattern: string): string {
  const segments = parseRoute(pattern);
  const parts: string[] = [];
  for (const s of segments) {
    if (s.kind === 'static') parts.push(encodeURIComponent(s.text));
    else if (s.kind === 'param')
      parts.push(encodeURIComponent(sampleParam(s.re ? new RegExp(`^(?:${s.re.source.replace(/^\^|\$$/g, '')})$`, s.re.flags) : null)));
    else parts.push('sample');
  }
  return `/${parts.join('/')}`;
}

/** The path no app routes: its answer is each runtime's 404. */
export const NOT_FOUND_PROBE = '/__rove_parity_not_found__';

/**
 * Requests for a route table (`app.routeList`): each route once with sample params (a JSON `{}`
 * body for methods that carry one), HEAD for each GET path, OPTIONS for each path, and a 404 probe.
 */
export function requestsFromRoutes(routes: { method: string; path: string }[]): ParityRequest[] {
  const out: ParityRequest[] = [];
  const seen = new Set<string>();
  const add = (method: string, path: string) => {
    const key = `${method} ${path}`;
    if (seen.has(key)) return;
    seen.add(key);
    const body = ['POST', 'PUT', 'PATCH'].includes(method) ? '{}' : undefined;
    out.push(request(method, path, body ? [['content-type', 'application/json']] : [], body));
  };
  const paths: string[] = [];
  for (const r of routes) {
    let path: string;
    try {
      path = samplePath(r.path);
    } catch {
      continue;
    }
    const method = r.method === 'ALL' || r.method === '*' ? 'GET' : r.method.toUpperCase();
    add(method, path);
    if (method === 'GET') add('HEAD', path);
    if (!paths.includes(path)) paths.push(path);
  }
  for (const p of paths) add('OPTIONS', p);
  add('GET', NOT_FOUND_PROBE);
  return out;
}
