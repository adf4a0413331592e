// `rove openapi <module>`: the OpenAPI 3.1 document of a module's App (or of its route()/group()
// declarations), written as JSON.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type OpenAPIDocument, openapi } from '../../src/contract/openapi.ts';
import { isRoute } from '../../src/contract/route.ts';
import type { Contract, Route } from '../../src/contract/types.ts';
import { loadModule } from './load-module.ts';

export const OPENAPI_USAGE = `usage: rove openapi <module> [--export name] [--out file] [--title t] [--version v] [--server url]
  Imports <module> and writes the OpenAPI 3.1 document of the App it exports (its declared and
  plain routes), or of the route()/group() declarations it exports, as JSON.
  <module> exports the app without serving it (src/core/app.ts, not the entry that calls serve()).
  A .ts module: run under Bun or Deno, on Node 22.18+, or with tsx installed (it is loaded through it).
  --export <name>    the export to document (default: default, then app, then the only App or contract)
  --out <file>       where to write (default: stdout)
  --title <t> --version <v>   info.title and info.version (default: package.json's name and version)
  --server <url>     a servers entry (repeatable)`;

type Source = Parameters<typeof openapi>[0];

const isApp = (v: unknown): boolean => v !== null && typeof v === 'object' && Array.isArray((v as { routeList?: unknown }).routeList);
/** A route, or an object whose leaves are all routes (a group). */
function isContract(v: unknown): boolean {
  if (isRoute(v)) return true;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const values = Object.values(v);
  return values.length > 0 && values.every(isContract);
}

/** The export to document: `name`, or default, app, or the only App or contract among the exports. */
export function pickExport(module: Record<string, unknown>, name?: string): Source {
  const usable = (v: unknown) => isApp(v) || isContract(v);
  if (name !== undefined) {
    if (!(name in module)) throw new Error(`the module has no export "${name}"`);
    if (!usable(module[name])) throw new Error(`the export "${name}" is neither an App nor route()/group() declarations`);
    return module[name] as Source;
  }
  for (const n of ['default', 'app']) if (usable(module[n])) return module[n] as Source;
  const found = Object.entries(module).filter(([, v]) => usable(v));
  const apps = found.filter(([, v]) => isApp(v));
  const pick = apps.length === 1 ? apps : found;
  if (pick.length === 1) return pick[0][1] as Source;
  if (pick.length === 0) throw new Error('the module exports no App and no route()/group() declarations');
  throw new Error(`the module exports several: ${pick.map(([n]) => n).join(', ')}; choose one with --export`);
}

function packageInfo(cwd: string): { name?: string; version?: string } {
  try {
    return JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'));
  } catch {
    return {};
  }
}

/** The document `rove openapi` writes. */
export async function openapiDocument(
  file: string,
  o: { export?: string; title?: string; version?: string; servers?: string[]; cwd?: string } = {},
): Promise<OpenAPIDocument> {
  const cwd = o.cwd ?? process.cwd();
  const source = pickExport(await loadModule(file, cwd), o.export);
  const pkg = packageInfo(cwd);
  const info = { title: o.title ?? pkg.name ?? 'API', version: o.version ?? pkg.version ?? '0.0.0' };
  return openapi(source as App | Contract | Route, { info, ...(o.servers?.length ? { servers: o.servers.map((url) => ({ url })) } : {}) });
}

type App = Extract<Source, { routeList: unknown }>;

/** Run `rove openapi` with `argv` (after the command name); returns the exit code. */
export async function openapiCommand(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    console.error(`openapi: ${(error as Error).message}\n${OPENAPI_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(OPENAPI_USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    console.error(OPENAPI_USAGE);
    return 2;
  }
  let doc: OpenAPIDocument;
  try {
    doc = await openapiDocument(positionals[0], { export: values.export, title: values.title, version: values.version, servers: values.server });
  } catch (error) {
    console.error(`openapi: ${(error as Error).message}`);
    return 1;
  }
  const json = `${JSON.stringify(doc, null, 2)}\n`;
  if (values.out) {
    writeFileSync(values.out, json);
    console.error(`openapi: ${positionals[0]} -> ${values.out} (${Object.keys(doc.paths).length} paths)`);
  } else process.stdout.write(json);
  return 0;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      export: { type: 'string' },
      out: { type: 'string' },
      title: { type: 'string' },
      version: { type: 'string' },
      server: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
