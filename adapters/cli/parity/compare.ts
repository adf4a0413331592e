// What counts as a difference between runtimes' answers, and what is masked first.
// The rules are documented in docs/parity.md; keep the two together.
import type { ParityRequest } from './requests.ts';
import type { Runtime } from './runtimes.ts';

/** One runtime's answer, as received. */
export interface Answer {
  status: number;
  /** Header fields in arrival order, lower-case names; Set-Cookie one field per cookie. */
  headers: [string, string][];
  body: Uint8Array;
  /** A request that got no answer (connection refused, reset, timeout). */
  error?: string;
}

/** A part of the answer on which runtimes disagree, with the runtimes grouped by what they said. */
export interface Difference {
  /** `status`, `body`, `error` or `header <name>`. */
  aspect: string;
  groups: { runtimes: Runtime[]; value: string }[];
  /** Set when this is a known platform difference: why it happens. Such differences do not fail the run. */
  known?: string;
}

/** Transport and per-connection fields: compared by nobody. */
export const IGNORED_HEADERS = new Set([
  'date',
  'server',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'via',
  'age',
  'alt-svc',
  'cf-ray',
  'nel',
  'report-to',
]);
/** Fields whose value is new on every request: only whether they are present is compared. */
export const VOLATILE_HEADERS = new Set(['x-request-id', 'request-id', 'x-correlation-id', 'traceparent']);
/** Dates that depend on the clock or a file's mtime: only presence is compared. */
const DATE_HEADERS = new Set(['last-modified', 'expires']);
/** A cookie value at least this long is treated as a token (session ids, signed values) and masked. */
export const COOKIE_TOKEN_LENGTH = 16;

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\b/gi;
const ISO_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})\b/g;
const NONCE_ATTR = /\bnonce="[^"]*"/g;
const NONCE_CSP = /'nonce-[^']*'/g;
const CSRF_INPUT = /(<input\b[^>]*\bname="_?csrf[\w-]*"[^>]*\bvalue=")[^"]*"/gi;
const CSRF_INPUT_REVERSED = /(<input\b[^>]*\bvalue=")[^"]*("[^>]*\bname="_?csrf[\w-]*")/gi;
const CSRF_META = /(<meta\b[^>]*\bname="csrf[\w-]*"[^>]*\bcontent=")[^"]*"/gi;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A Set-Cookie field with its value masked when it is a token, and `Expires` masked (it moves with the clock). */
export function maskCookie(field: string): { name: string; masked: string; value: string } {
  const [pair, ...attrs] = field.split(';');
  const eq = pair.indexOf('=');
  const name = (eq < 0 ? pair : pair.slice(0, eq)).trim();
  const value = eq < 0 ? '' : pair.slice(eq + 1).trim();
  const shown = value.length >= COOKIE_TOKEN_LENGTH ? '<token>' : value;
  const rest = attrs
    .map((a) => a.trim())
    .filter((a) => a !== '')
    .map((a) => (/^expires=/i.test(a) ? 'Expires=<date>' : a))
    .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  return { name, value, masked: [`${name}=${shown}`, ...rest].join('; ') };
}

export interface Normalized {
  status: string;
  body: string;
  headers: Map<string, string>;
  error?: string;
}

/** Mask one answer: the comparable form of status, headers and body. */
export function normalize(answer: Answer, extraMasks: RegExp[] = []): Normalized {
  if (answer.error !== undefined) return { status: '-', body: '', headers: new Map(), error: answer.error };
  const headers = new Map<string, string>();
  const secrets: string[] = [];
  const cookies: string[] = [];
  for (const [name, raw] of answer.headers) {
    if (IGNORED_HEADERS.has(name)) continue;
    let value = raw;
    if (name === 'set-cookie') {
      const c = maskCookie(raw);
      if (c.value.length >= COOKIE_TOKEN_LENGTH) secrets.push(c.value);
      cookies.push(c.masked);
      continue;
    }
    if (VOLATILE_HEADERS.has(name)) {
      secrets.push(raw);
      value = '<volatile>';
    } else if (DATE_HEADERS.has(name)) value = '<date>';
    else if (name === 'etag') value = raw.startsWith('W/') ? 'W/"<etag>"' : '"<etag>"';
    else if (name.startsWith('content-security-policy')) {
      for (const m of raw.matchAll(/'nonce-([^']*)'/g)) secrets.push(m[1]);
      value = raw.replace(NONCE_CSP, "'nonce-<nonce>'");
    }
    headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
  }
  if (cookies.length) headers.set('set-cookie', cookies.sort().join(' | '));
  let body = new TextDecoder('utf-8', { fatal: false }).decode(answer.body);
  for (const s of secrets) if (s.length >= 8) body = body.replace(new RegExp(escapeRegExp(s), 'g'), '<volatile>');
  body = body
    .replace(UUID, '<uuid>')
    .replace(ISO_TIME, '<time>')
    .replace(NONCE_ATTR, 'nonce="<nonce>"')
    .replace(CSRF_INPUT, '$1<csrf>"')
    .replace(CSRF_INPUT_REVERSED, '$1<csrf>$2')
    .replace(CSRF_META, '$1<csrf>"');
  for (const re of extraMasks) body = body.replace(re, '<masked>');
  return { status: String(answer.status), body, headers };
}

function group(values: Map<Runtime, string>): { runtimes: Runtime[]; value: string }[] {
  const groups: { runtimes: Runtime[]; value: string }[] = [];
  for (const [runtime, value] of values) {
    const g = groups.find((x) => x.value === value);
    if (g) g.runtimes.push(runtime);
    else groups.push({ runtimes: [runtime], value });
  }
  return groups;
}

/** Where the runtimes' answers to one request differ, after masking. */
export function diff(answers: Map<Runtime, Normalized>): Difference[] {
  const out: Difference[] = [];
  const aspect = (name: string, pick: (n: Normalized) => string) => {
    const values = new Map<Runtime, string>();
    for (const [r, n] of answers) values.set(r, pick(n));
    const groups = group(values);
    if (groups.length > 1) out.push({ aspect: name, groups });
  };
  aspect('error', (n) => n.error ?? '(answered)');
  const answered = new Map([...answers].filter(([, n]) => n.error === undefined));
  // No runtime answered: the same failure everywhere is still a failure, with its reason shown.
  if (answered.size === 0 && answers.size > 0 && out.length === 0) {
    out.push({ aspect: 'error', groups: group(new Map([...answers].map(([r, n]) => [r, n.error ?? '(answered)']))) });
  }
  if (answered.size < 2) return out;
  const sub = (name: string, pick: (n: Normalized) => string) => {
    const values = new Map<Runtime, string>();
    for (const [r, n] of answered) values.set(r, pick(n));
    const groups = group(values);
    if (groups.length > 1) out.push({ aspect: name, groups });
  };
  sub('status', (n) => n.status);
  const names = new Set<string>();
  for (const n of answered.values()) for (const k of n.headers.keys()) names.add(k);
  for (const name of [...names].sort()) sub(`header ${name}`, (n) => n.headers.get(name) ?? '(absent)');
  sub('body', (n) => n.body);
  return out;
}

/** A platform difference that parity labels instead of failing on. */
export interface KnownRule {
  id: string;
  why: string;
  applies(d: Difference, request: ParityRequest, context: KnownContext): boolean;
}

export interface KnownContext {
  /** Paths Workers Static Assets answer before the worker runs ([assets] without run_worker_first). */
  assetPaths: Set<string>;
  /** Files in the [assets] directory, relative to it ('app.css', 'img/logo.png'). */
  assetFiles: Set<string>;
  /** This request's masked answers, by runtime. */
  answers: Map<Runtime, Normalized>;
}

/** The difference sets `runtime` alone against all the others. */
const only = (d: Difference, runtime: Runtime) => d.groups.length === 2 && d.groups.some((g) => g.runtimes.length === 1 && g.runtimes[0] === runtime);

const ENCODED = /^(gzip|br|deflate|zstd)$/;
const header = (n: Normalized, name: string) => n.headers.get(name) ?? '(absent)';

/**
 * Whether `name` differs only as compression makes it differ: the runtimes that answered with a
 * Content-Encoding have none of it (or, for Vary, only Accept-Encoding more), and the others agree.
 */
function onlyCompression(name: string, ctx: KnownContext): boolean {
  const answers = [...ctx.answers.values()].filter((n) => n.error === undefined);
  const encoded = answers.filter((n) => ENCODED.test(n.headers.get('content-encoding') ?? ''));
  const plain = answers.filter((n) => !n.headers.has('content-encoding'));
  // Vary: Accept-Encoding belongs to whoever compresses: the app's compress() adds it even to a
  // small answer it leaves alone; Deploy's and Workers' edges add it themselves.
  if (name === 'vary') {
    const strip = (v: string) =>
      v
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '' && t !== '(absent)' && t.toLowerCase() !== 'accept-encoding')
        .join(', ');
    return new Set(answers.map((n) => strip(header(n, 'vary')))).size === 1;
  }
  if (encoded.length === 0 || plain.length === 0 || encoded.length + plain.length !== answers.length) return false;
  if (name === 'content-encoding') return true;
  // A compressed body's length is its own (Node names it when the body has ended in time): only the plain answers must agree.
  if (name === 'content-length') return new Set(plain.map((n) => header(n, name))).size === 1;
  if (name === 'accept-ranges') return encoded.every((n) => !n.headers.has(name)) && new Set(plain.map((n) => header(n, name))).size === 1;
  return false;
}

/** Every runtime answered the same body (after masking): a Content-Length present or not is framing only. */
function sameBody(ctx: KnownContext): boolean {
  return new Set([...ctx.answers.values()].map((n) => n.body)).size === 1;
}

/** The request path names a file of the [assets] directory, maybe under a prefix the app serves it at (/static/app.css). */
function namesAsset(path: string, ctx: KnownContext): boolean {
  const parts = path.split('?')[0].split('/').filter(Boolean).map(decodeURIComponent);
  for (let i = 0; i < parts.length; i++) if (ctx.assetFiles.has(parts.slice(i).join('/'))) return true;
  return false;
}

/** The known platform differences, each labelled in the report with its reason. */
export const KNOWN: KnownRule[] = [
  {
    id: 'workers-static-assets',
    why: 'Workers Static Assets answer this path before the worker runs, with their own headers ([assets] without run_worker_first)',
    applies: (d, req, ctx) => ctx.assetPaths.has(req.path.split('?')[0]) && only(d, 'workers'),
  },
  {
    id: 'workers-assets-binding',
    why: "the file comes from Workers Static Assets through the ASSETS binding, with the platform's validators (a strong ETag, no Last-Modified, CF-Cache-Status) instead of a file system's",
    applies: (d, req, ctx) => /^header (etag|last-modified|cf-cache-status|accept-ranges)$/.test(d.aspect) && only(d, 'workers') && namesAsset(req.path, ctx),
  },
  {
    id: 'workers-upgrade-header',
    why: 'workerd treats Upgrade as a hop-by-hop field and drops it from answers that are not a 101 (a 426 names no protocol on Workers)',
    applies: (d) =>
      d.aspect === 'header upgrade' && only(d, 'workers') && d.groups.find((g) => g.runtimes[0] === 'workers' && g.runtimes.length === 1)?.value === '(absent)',
  },
  {
    id: 'ended-stream-length',
    why: 'a streamed body (an SSE stream, a copy from the Cache API) that has already ended when the head is written goes with its Content-Length on some runtimes (Bun; Node, which holds a body back for one macrotask; deno serve for a cached copy) and chunked on others: the bodies, compared apart, agree',
    applies: (d, _req, ctx) =>
      d.aspect === 'header content-length' &&
      d.groups.length === 2 &&
      d.groups.some((g) => g.value === '(absent)') &&
      /^\d+$/.test(d.groups.find((g) => g.value !== '(absent)')!.value) &&
      sameBody(ctx),
  },
  {
    id: 'workers-cache-status',
    why: "an answer from the Workers Cache API carries Cloudflare's CF-Cache-Status (HIT); the other runtimes' caches add no header",
    applies: (d) => d.aspect === 'header cf-cache-status' && only(d, 'workers'),
  },
  {
    id: 'compression',
    why: 'one runtime compressed and another did not (wrangler dev compresses as the Workers edge does; Deno Deploy and Workers compress at the platform, so apps often compress only on Node, Deno and Bun): the decoded bodies are compared; Content-Encoding, and the Content-Length and Accept-Ranges that go with it, are not, nor is Vary: Accept-Encoding, which whoever compresses adds',
    applies: (d, _req, ctx) => d.aspect.startsWith('header ') && onlyCompression(d.aspect.slice('header '.length), ctx),
  },
];

/**
 * Label the differences that a known rule explains. None is labelled where the statuses differ or
 * no runtime answered: a platform's headers never explain a different answer (a cached 200
 * against a 404 is not a Content-Length matter).
 */
export function label(diffs: Difference[], request: ParityRequest, context: KnownContext, rules = KNOWN): Difference[] {
  if (diffs.some((d) => d.aspect === 'status' || d.aspect === 'error')) return diffs;
  for (const d of diffs) {
    const rule = rules.find((r) => r.applies(d, request, context));
    if (rule) d.known = `${rule.id}: ${rule.why}`;
  }
  return diffs;
}
