// workerd: bundle the worker entry with esbuild and serve it with a generated
// config. Load tests hit workerd directly: wrangler dev and Miniflare put a
// development proxy in front of it (about 1.1k and 6k req/s against 20k here: docs/benchmarks/methods.md).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ROOT, resolveBin } from './proc.ts';

export interface WorkerdConfigOptions {
  port: number;
  host?: string;
  /** File name of the bundled module, relative to the config file. */
  module: string;
  compatibilityDate?: string;
  compatibilityFlags?: readonly string[];
  /** V8 flags for the whole process (Config.v8Flags), e.g. --no-maglev. */
  v8Flags?: readonly string[];
  /** Text bindings (wrangler.toml [vars]), reaching the worker as env. */
  bindings?: Readonly<Record<string, string>>;
  /** Let the worker's fetch() and connect() reach loopback and private addresses (a local database). */
  allowLocalNetwork?: boolean;
  /** Text modules (wrangler's `Text` rule): files beside the config, each imported by its name as a string. */
  textModules?: readonly string[];
}

const capnpString = (s: string) => JSON.stringify(s); // capnp text strings use the same escapes

export function workerdConfig(o: WorkerdConfigOptions): string {
  const flags = (o.compatibilityFlags ?? []).map(capnpString).join(', ');
  const bindings = Object.entries(o.bindings ?? {})
    .map(([name, text]) => `(name = ${capnpString(name)}, text = ${capnpString(text)})`)
    .join(', ');
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (${o.v8Flags?.length ? `\n  v8Flags = [${o.v8Flags.map(capnpString).join(', ')}],` : ''}
  services = [ (name = "main", worker = .mainWorker)${o.allowLocalNetwork ? ', (name = "net", network = (allow = ["public", "private", "local"]))' : ''} ],
  sockets = [ (name = "http", address = ${capnpString(`${o.host ?? '127.0.0.1'}:${o.port}`)}, http = (), service = "main") ],
);

const mainWorker :Workerd.Worker = (
  modules = [ (name = ${capnpString(o.module)}, esModule = embed ${capnpString(o.module)})${(o.textModules ?? []).map((m) => `, (name = ${capnpString(m)}, text = embed ${capnpString(m)})`).join('')} ],
  compatibilityDate = ${capnpString(o.compatibilityDate ?? '2025-01-01')},
  compatibilityFlags = [${flags}],
  bindings = [${bindings}],${o.allowLocalNetwork ? '\n  globalOutbound = "net",' : ''}
);
`;
}

// Bare names of Node built-ins that CommonJS packages the tests bundle require (OpenTelemetry's
// context manager). wrangler, with nodejs_compat, turns such a require into an import of node:…;
// requireShim() does the same here.
const NODE_BUILTINS = ['async_hooks', 'events'];

/** A module-scope `require` for the built-ins a bundle requires: esbuild's own shim calls it. */
function requireShim(names: readonly string[]): string {
  const imports = names.map((n, i) => `import * as __node${i} from 'node:${n}';`).join(' ');
  const table = names.map((n, i) => `${JSON.stringify(n)}: __node${i}.default ?? __node${i}`).join(', ');
  return `${imports} const require = (name) => { const m = { ${table} }[name.replace(/^node:/, '')]; if (m === undefined) throw new Error('cannot require ' + name); return m; };`;
}

/** Bundles a worker entry into one ES module (what wrangler would upload). */
export function bundleWorker(entry: string, outfile: string, define: Record<string, string> = {}, cwd = ROOT, external: readonly string[] = []): void {
  const args = [
    entry,
    '--bundle',
    '--format=esm',
    // wrangler's own default (esbuild's browser platform): a package's `browser` map applies.
    '--platform=browser',
    '--target=es2022',
    '--conditions=workerd,worker,browser',
    '--main-fields=workerd,worker,browser,module,main',
    '--log-level=warning',
    // Provided by workerd itself (node:* with the nodejs_compat flag), as wrangler leaves them.
    '--external:node:*',
    ...NODE_BUILTINS.map((name) => `--external:${name}`),
    '--external:cloudflare:*',
    ...external.map((e) => `--external:${e}`),
    `--outfile=${outfile}`,
    ...Object.entries(define).map(([k, v]) => `--define:${k}=${v}`),
  ];
  esbuild(entry, args, cwd);
  // A bundle that requires a built-in gets the shim (only then: it imports node:…, which needs nodejs_compat).
  const required = NODE_BUILTINS.filter((name) => readFileSync(outfile, 'utf8').includes(`__require("${name}")`));
  if (required.length > 0) esbuild(entry, [...args, `--banner:js=${requireShim(required)}`], cwd);
}

function esbuild(entry: string, args: string[], cwd: string): void {
  try {
    execFileSync(resolveBin('esbuild'), args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stderr?: Buffer; message: string };
    throw new Error(`esbuild failed for ${entry}: ${e.stderr?.toString().trim() || e.message}`);
  }
}
