// `rove parity`: start an app on five runtimes, send each the same requests, report where the
// answers differ. Runs on Node; the runtimes come from the app's node_modules/.bin.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Answer, type Difference, diff, label, type Normalized, normalize } from './compare.ts';
import { killAllNow } from './proc.ts';
import { type ParityRequest, parseHttpFile, parseJsonRequests } from './requests.ts';
import { DEFAULT_ENTRIES, RUNTIMES, type Running, type Runtime, readToml, removeScratchNow, start, wranglerVars } from './runtimes.ts';

export interface ParityOptions {
  /** The app's folder (default: the current directory). */
  cwd?: string;
  runtimes?: readonly Runtime[];
  /** Entry per runtime, relative to `cwd`; Workers take the wrangler.toml. */
  entries?: Partial<Record<Runtime, string>>;
  requests: ParityRequest[];
  /** Extra environment for Node, Deno and Bun, over wrangler.toml's [vars]. */
  env?: Record<string, string>;
  nodeArgs?: string[];
  /** More body masks: each match is replaced by `<masked>` before comparing. */
  masks?: RegExp[];
  /** Per request, in ms (default 10 s). */
  requestTimeoutMs?: number;
  startTimeoutMs?: number;
  /** Progress while runtimes start: one call per change. */
  onProgress?: (line: string) => void;
}

export interface RequestResult {
  name: string;
  method: string;
  path: string;
  statuses: Partial<Record<Runtime, number | string>>;
  /** The first runtime's masked body, cut at 500 characters: what the request got. */
  body: string;
  differences: Difference[];
}

export interface ParityResult {
  runtimes: Runtime[];
  /** Runtimes that did not start, with why. */
  failed: Partial<Record<Runtime, string>>;
  requests: RequestResult[];
  /** Differences no known rule explains: the run fails when there is any. */
  unexplained: number;
  known: number;
  ms: number;
}

class CookieJar {
  #cookies = new Map<string, string>();
  header(): string | undefined {
    return this.#cookies.size ? [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ') : undefined;
  }
  take(setCookies: string[]): void {
    for (const field of setCookies) {
      const [pair, ...attrs] = field.split(';');
      const eq = pair.indexOf('=');
      if (eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const gone = attrs.some((a) => {
        const [k, v = ''] = a.trim().split('=');
        if (k.toLowerCase() === 'max-age') return Number(v) <= 0;
        if (k.toLowerCase() === 'expires') return Date.parse(v) < Date.now();
        return false;
      });
      if (gone) this.#cookies.delete(name);
      else this.#cookies.set(name, pair.slice(eq + 1).trim());
    }
  }
}

/** `{{name}}` replaced by this runtime's captured value (left as it is when nothing was captured). */
function fill(text: string, vars: Map<string, string>): string {
  return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (m, name: string) => vars.get(name) ?? m);
}

function capture(req: ParityRequest, answer: Answer, vars: Map<string, string>): void {
  if (!req.captures || answer.error !== undefined) return;
  const text = new TextDecoder().decode(answer.body);
  for (const c of req.captures) {
    const value = 'header' in c ? answer.headers.find(([k]) => k === c.header)?.[1] : new RegExp(c.pattern).exec(text)?.[1];
    if (value !== undefined) vars.set(c.name, value);
  }
}

async function send(base: string, template: ParityRequest, jar: CookieJar, vars: Map<string, string>, timeoutMs: number): Promise<Answer> {
  const req: ParityRequest = {
    ...template,
    path: fill(template.path, vars),
    headers: template.headers.map(([k, v]) => [k, fill(v, vars)]),
    ...(template.body !== undefined ? { body: fill(template.body, vars) } : {}),
  };
  const headers = new Headers(req.headers);
  const cookie = jar.header();
  if (cookie !== undefined && !headers.has('cookie')) headers.set('cookie', cookie);
  try {
    const res = await fetch(base + req.path, {
      method: req.method,
      headers,
      body: req.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = new Uint8Array(await res.arrayBuffer());
    const setCookies = res.headers.getSetCookie();
    jar.take(setCookies);
    const fields: [string, string][] = [];
    for (const [k, v] of res.headers) if (k !== 'set-cookie') fields.push([k, v]);
    for (const c of setCookies) fields.push(['set-cookie', c]);
    return { status: res.status, headers: fields, body };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    return { status: 0, headers: [], body: new Uint8Array(), error: e.name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : (e.cause?.code ?? e.message) };
  }
}

/**
 * The files of wrangler.toml's [assets] directory, and the paths Workers Static Assets answer
 * themselves (those files, when the worker does not run first).
 */
function assets(toml: string, tomlDir: string): { assetFiles: Set<string>; assetPaths: Set<string> } {
  const assetFiles = new Set<string>();
  const assetPaths = new Set<string>();
  const section = /^\[assets\]\s*$([\s\S]*?)(?=^\s*\[|(?![\s\S]))/m.exec(toml)?.[1];
  const dir = section === undefined ? undefined : /^\s*directory\s*=\s*"([^"]*)"/m.exec(section)?.[1];
  if (section === undefined || !dir) return { assetFiles, assetPaths };
  const first = /^\s*run_worker_first\s*=\s*true/m.test(section);
  const walk = (d: string, prefix: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d)) {
      if (statSync(join(d, e)).isDirectory()) walk(join(d, e), `${prefix}${e}/`);
      else {
        assetFiles.add(`${prefix}${e}`);
        if (first) continue;
        assetPaths.add(`/${prefix}${e}`);
        if (e === 'index.html') assetPaths.add(`/${prefix}`);
      }
    }
  };
  walk(resolve(tomlDir, dir), '');
  return { assetFiles, assetPaths };
}

/** Run the requests on every runtime and compare. Stops every server it started. */
export async function parity(o: ParityOptions): Promise<ParityResult> {
  const t0 = Date.now();
  const cwd = resolve(o.cwd ?? '.');
  const runtimes = [...(o.runtimes ?? RUNTIMES)];
  const entries = { ...DEFAULT_ENTRIES, ...o.entries };
  const tomlFile = resolve(cwd, entries.workers);
  const toml = readToml(tomlFile);
  const env = { ...wranglerVars(toml), ...o.env };
  const progress = o.onProgress ?? (() => {});
  const state = new Map<Runtime, string>(runtimes.map((r) => [r, 'starting']));
  const show = () => progress(`starting runtimes: ${[...state].map(([r, s]) => `${r} ${s}`).join(', ')}`);
  show();
  const running = new Map<Runtime, Running>();
  const failed: Partial<Record<Runtime, string>> = {};
  // The servers are in process groups of their own, out of reach of the terminal's Ctrl-C: stop them here.
  const onExit = () => killAllNow();
  const onSignal = (signal: NodeJS.Signals) => {
    killAllNow();
    removeScratchNow();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('exit', onExit);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await Promise.all(
      runtimes.map(async (runtime) => {
        const t = Date.now();
        try {
          running.set(runtime, await start(runtime, { cwd, entries, env, nodeArgs: o.nodeArgs, timeoutMs: o.startTimeoutMs }));
          state.set(runtime, `ready (${((Date.now() - t) / 1000).toFixed(1)} s)`);
        } catch (error) {
          failed[runtime] = (error as Error).message;
          state.set(runtime, 'FAILED');
        }
        show();
      }),
    );
    const up = runtimes.filter((r) => running.has(r));
    progress(`sending ${o.requests.length} requests to ${up.join(', ')}`);
    // Each runtime gets the requests in order, with its own cookie jar and captured values; runtimes run side by side.
    const answers = new Map<Runtime, Answer[]>();
    await Promise.all(
      up.map(async (runtime) => {
        const jar = new CookieJar();
        // {{origin}}: this runtime's own origin, for requests that must name it (Origin, Referer: CSRF).
        const vars = new Map<string, string>([['origin', running.get(runtime)!.url]]);
        const list: Answer[] = [];
        for (const req of o.requests) {
          const answer = await send(running.get(runtime)!.url, req, jar, vars, o.requestTimeoutMs ?? 10_000);
          capture(req, answer, vars);
          list.push(answer);
        }
        answers.set(runtime, list);
      }),
    );
    const files = assets(toml, dirname(tomlFile));
    const requests = o.requests.map((req, i): RequestResult => {
      const normalized = new Map<Runtime, Normalized>();
      const statuses: RequestResult['statuses'] = {};
      for (const r of up) {
        const a = answers.get(r)![i];
        normalized.set(r, normalize(a, o.masks));
        statuses[r] = a.error === undefined ? a.status : 'error';
      }
      return {
        name: req.name,
        method: req.method,
        path: req.path,
        statuses,
        body: normalized.values().next().value?.body.slice(0, 500) ?? '',
        differences: label(diff(normalized), req, { ...files, answers: normalized }),
      };
    });
    const all = requests.flatMap((r) => r.differences);
    return {
      runtimes,
      failed,
      requests,
      unexplained: all.filter((d) => d.known === undefined).length,
      known: all.filter((d) => d.known !== undefined).length,
      ms: Date.now() - t0,
    };
  } finally {
    await Promise.all([...running.values()].map((r) => r.stop()));
    process.off('exit', onExit);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * The app's route table, read by importing `module` on Node (with `nodeArgs`, default
 * `--import tsx`): its `app` export, its default export, or the first export with a `routeList`.
 */
export function routesOf(module: string, cwd: string, nodeArgs = ['--import', 'tsx']): Promise<{ method: string; path: string }[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'rove-parity-routes-'));
  const script = join(scratch, 'routes.mjs');
  writeFileSync(
    script,
    `const m = await import(${JSON.stringify(pathToFileURL(resolve(cwd, module)).href)});
const isApp = (v) => v !== null && typeof v === 'object' && Array.isArray(v.routeList);
const app = isApp(m.app) ? m.app : isApp(m.default) ? m.default : Object.values(m).find(isApp);
if (!app) { console.error('no App export (app, default, or any export with routeList)'); process.exit(3); }
process.stdout.write(JSON.stringify(app.routeList));
process.exit(0);
`,
  );
  return new Promise((ok, fail) => {
    execFile(process.execPath, [...nodeArgs, script], { cwd, timeout: 30_000 }, (error, stdout, stderr) => {
      rmSync(scratch, { recursive: true, force: true });
      if (error) fail(new Error(`could not read the routes of ${module}: ${stderr.trim() || error.message}`));
      else ok(JSON.parse(stdout));
    });
  });
}

/** Requests from a file: `.json` is a JSON list, anything else an .http file. */
export function readRequests(file: string): ParityRequest[] {
  const text = readFileSync(file, 'utf8');
  return file.endsWith('.json') ? parseJsonRequests(text) : parseHttpFile(text);
}
