// `rove parity [requests.http | requests.json ...]`: the app on five runtimes, compared.
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatReport } from './parity/report.ts';
import { requestsFromRoutes } from './parity/requests.ts';
import { type ParityOptions, parity, readRequests, routesOf } from './parity/run.ts';
import { RUNTIMES, type Runtime } from './parity/runtimes.ts';

export const PARITY_USAGE = `usage: rove parity [requests.http | requests.json ...] [options]
  Starts the app on each runtime, sends every request to each, prints where the answers differ.
  With no request file: requests.http if there is one, else requests derived from the routes.
  --runtimes node,deno,bun,deploy,workers   which runtimes (default: all five)
  --routes               also derive requests from the app's route table (--app)
  --app <module>         the module exporting the App (default: src/core/app.ts)
  --node <entry> --deno <entry> --bun <entry> --deploy <entry>   entries (default: src/<name>.ts)
  --workers <wrangler.toml>   the Workers config (default: wrangler.toml); its [vars] reach every runtime's env
  --env KEY=VALUE        more environment for node, deno and bun (repeatable)
  --mask <regex>         mask matches in bodies before comparing (repeatable)
  --node-args="<args>"   node's arguments before the entry (default: --import tsx)
  --json <file>          write the result as JSON (- for stdout)
  --cwd <dir>            the app's folder (default: .)
  exit code: 0 when every difference is a known platform difference, 1 otherwise, 2 on bad usage`;

/** Run `rove parity` with `argv` (after the command name); returns the exit code. */
export async function parityCommand(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
  } catch (error) {
    console.error(`parity: ${(error as Error).message}\n${PARITY_USAGE}`);
    return 2;
  }
  const v = args.values;
  if (v.help) {
    console.log(PARITY_USAGE);
    return 0;
  }
  const cwd = resolve(v.cwd ?? '.');
  const runtimes = (v.runtimes ?? RUNTIMES.join(',')).split(',').map((s) => s.trim()) as Runtime[];
  const unknown = runtimes.filter((r) => !RUNTIMES.includes(r));
  if (unknown.length) {
    console.error(`parity: unknown runtime ${unknown.join(', ')} (choose from ${RUNTIMES.join(', ')})`);
    return 2;
  }
  const nodeArgs = v['node-args']?.split(/\s+/).filter(Boolean);
  const env: Record<string, string> = {};
  for (const kv of v.env ?? []) {
    const eq = kv.indexOf('=');
    if (eq <= 0) {
      console.error(`parity: --env takes KEY=VALUE, not ${kv}`);
      return 2;
    }
    env[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  const requests: ParityOptions['requests'] = [];
  try {
    let files = args.positionals;
    if (files.length === 0 && !v.routes && existsSync(resolve(cwd, 'requests.http'))) files = ['requests.http'];
    for (const f of files) requests.push(...readRequests(resolve(cwd, f)));
    if (v.routes || files.length === 0) requests.push(...requestsFromRoutes(await routesOf(v.app ?? 'src/core/app.ts', cwd, nodeArgs)));
  } catch (error) {
    console.error(`parity: ${(error as Error).message}`);
    return 2;
  }
  if (requests.length === 0) {
    console.error('parity: no requests');
    return 2;
  }
  const entries: ParityOptions['entries'] = {};
  for (const r of RUNTIMES) if (v[r] !== undefined) entries[r] = v[r];
  const tty = process.stderr.isTTY;
  const result = await parity({
    cwd,
    runtimes,
    entries,
    requests,
    env,
    nodeArgs,
    masks: (v.mask ?? []).map((m) => new RegExp(m, 'g')),
    onProgress: (line) => process.stderr.write(tty ? `\r\x1b[K${line}` : `${line}\n`),
  });
  if (tty) process.stderr.write('\r\x1b[K');
  if (v.json === '-') console.log(JSON.stringify(result, null, 2));
  else {
    console.log(formatReport(result));
    if (v.json !== undefined) writeFileSync(resolve(v.json), `${JSON.stringify(result, null, 2)}\n`);
  }
  return result.unexplained > 0 || Object.keys(result.failed).length > 0 ? 1 : 0;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      runtimes: { type: 'string' },
      routes: { type: 'boolean' },
      app: { type: 'string' },
      node: { type: 'string' },
      deno: { type: 'string' },
      bun: { type: 'string' },
      deploy: { type: 'string' },
      workers: { type: 'string' },
      env: { type: 'string', multiple: true },
      mask: { type: 'string', multiple: true },
      'node-args': { type: 'string' },
      json: { type: 'string' },
      cwd: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
