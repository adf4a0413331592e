// The shop API with real third-party clients: types from openapi-typescript, calls through
// openapi-fetch (type-checked with the project), every answer checked by Stoplight Prism as a
// validating proxy in front of the app on node, deno and bun. No answer may break the document.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Child, freePort, ROOT, resolveBin, startChild, stopChild } from '../../dev/proc.ts';
import { type Running, start } from '../conformance/servers.ts';
import { badCalls, type Called, goodCalls } from './real-clients/calls.ts';
import { generatedTypes, shopDocument } from './real-clients/types.ts';

const PRISM = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
let scratch: string;
let documentFile: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'rove-prism-'));
  documentFile = join(scratch, 'openapi.json');
  writeFileSync(documentFile, JSON.stringify(shopDocument()));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it('openapi-typescript writes the committed types from the document (run it again when the API changes)', async () => {
  expect(await generatedTypes()).toBe(readFileSync(join(ROOT, 'test/contract/real-clients/paths.gen.ts'), 'utf8'));
});

/** Prism's log, one entry per request it proxied: the request line and the violations it found. */
function violations(log: string): { request: string; violations: string[] }[] {
  const out: { request: string; violations: string[] }[] = [];
  for (const line of log.split('\n')) {
    const received = /\[HTTP SERVER\] (\w+) (\S+) .*Request received/.exec(line);
    if (received) out.push({ request: `${received[1].toUpperCase()} ${received[2]}`, violations: [] });
    const violation = /Violation: (.*)$/.exec(line);
    if (violation && out.length > 0) out[out.length - 1].violations.push(violation[1].trim());
  }
  return out;
}

describe.each(['node', 'deno', 'bun'] as const)('the shop API through Prism on %s', (runtime) => {
  let server: Running;
  let prism: Child;
  let log = '';
  let proxy: string;
  beforeAll(async () => {
    server = await start(runtime, 'test/contract/real-clients');
    const port = await freePort();
    prism = startChild(resolveBin('node'), [PRISM, 'proxy', documentFile, server.url, '--host', '127.0.0.1', '--port', String(port)], {
      NO_COLOR: '1',
      FORCE_COLOR: '0',
    });
    prism.proc.stdout!.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
    });
    proxy = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    while (!/Prism is listening/.test(log)) {
      if (prism.exited || Date.now() > deadline) throw new Error(`Prism did not start:\n${prism.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 90_000);
  afterAll(async () => {
    if (prism) await stopChild(prism);
    await server?.stop();
  });

  const checked = (calls: Called[], seen: ReturnType<typeof violations>) => calls.map((call, i) => ({ ...call, violations: seen[i]?.violations }));

  it('requests that fit the document get the answers it describes: no violation at all', async () => {
    const before = violations(log).length;
    const calls = await goodCalls(proxy);
    await new Promise((r) => setTimeout(r, 200)); // Prism logs after it answers
    const seen = violations(log).slice(before);
    expect(seen.length).toBe(calls.length);
    // On a mismatch, Prism's own account of the requests says what went wrong on the way.
    expect(
      calls.map((c) => `${c.name}: ${c.status}`),
      log.slice(-4000),
    ).toEqual([
      'list: 200',
      'get: 200',
      'create: 201',
      'create again: 409: 409',
      'replace: 200',
      'rename (basic): 200',
      'ping: 200',
      'options: 204',
      'delete: 204',
      'get a deleted item: 404: 404',
    ]);
    expect(checked(calls, seen).filter((c) => c.violations?.length)).toEqual([]);
  });

  it('requests that break the document get refusals it describes: no violation of a response', async () => {
    const before = violations(log).length;
    const calls = await badCalls(proxy);
    await new Promise((r) => setTimeout(r, 200));
    const seen = violations(log).slice(before);
    expect(seen.length).toBe(calls.length);
    expect(calls.map((c) => c.status)).toEqual([400, 400, 404, 400, 401, 401, 400, 415, 400, 404]);
    const all = checked(calls, seen);
    const responses = all.map((c) => ({ ...c, violations: c.violations?.filter((v) => v.startsWith('response')) }));
    expect(responses.filter((c) => c.violations?.length)).toEqual([]);
    // And the document refuses what the app refuses (an id of 0 or past 2^53 as well as the rest),
    // except what it cannot know: a token's value, and an item that does not exist.
    const unrefused = all.filter((c) => !c.violations?.some((v) => v.startsWith('request'))).map((c) => c.name);
    expect(unrefused).toEqual(['a wrong token', 'a missing item (No item 424242)']);
  });
});
