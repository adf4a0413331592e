// WebSockets and the servers an adapter owns: one app served twice in one process closes, at each
// server's shutdown, only that server's sockets (over real loopback, on Node, Deno and Bun); and
// app.request on an app a Deno adapter has bound answers a WebSocket route as on an unbound app.
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Child, resolveBin, startChild, stopChild } from '../../dev/proc.ts';

const DIR = 'test/adapters/fixtures';
const ENV = { NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' };

const COMMANDS = {
  node: () => [resolveBin('node'), '--conditions=source', '--import', 'tsx', `${DIR}/ws-twice-node.ts`],
  deno: () => [resolveBin('deno'), 'run', '--allow-net', '--allow-env', '--allow-read', `${DIR}/ws-twice-deno.ts`],
  bun: () => [resolveBin('bun'), `${DIR}/ws-twice-bun.ts`],
} as const;

/** The first stdout line matching `pattern`. */
function line(child: Child, pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern}:\n${child.output()}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      for (const l of text.split('\n')) {
        const m = l.match(pattern);
        if (m !== null) {
          clearTimeout(timer);
          child.proc.stdout!.off('data', onData);
          resolve(m);
          return;
        }
      }
    };
    child.proc.stdout!.on('data', onData);
  });
}

interface Client {
  ws: WebSocket;
  /** Resolves with the close code. */
  closed: Promise<number>;
}

async function connect(port: string): Promise<Client> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { ws, closed };
}

/** What the server echoes back; fails at once when the socket was closed instead. */
async function echo(client: Client, text: string): Promise<string> {
  const reply = new Promise<string>((resolve) => client.ws.once('message', (data) => resolve(data.toString())));
  const closed = client.closed.then((code) => Promise.reject(new Error(`closed with ${code}`)));
  client.ws.send(text);
  return Promise.race([reply, closed]);
}

let child: Child | undefined;
afterEach(async () => {
  if (child !== undefined) await stopChild(child);
  child = undefined;
});

describe.each(Object.keys(COMMANDS) as (keyof typeof COMMANDS)[])('one app served twice on %s', (runtime) => {
  it("each server's shutdown closes its own WebSockets with 1001, and only those", async () => {
    const [bin, ...args] = COMMANDS[runtime]();
    child = startChild(bin!, args, ENV);
    const [, a, b] = await line(child, /^ready (\d+) (\d+)$/);
    const onA = await connect(a!);
    const onB = await connect(b!);
    const otherOnA = await connect(a!);

    const stoppedB = line(child, /^stopped b$/);
    expect((await fetch(`http://127.0.0.1:${a}/stop/b`)).status).toBe(200);
    expect(await onB.closed).toBe(1001);
    await stoppedB;
    // A's sockets were not asked to close: they still answer.
    expect(await echo(onA, 'still here')).toBe('still here');
    expect(await echo(otherOnA, 'me too')).toBe('me too');
    expect(onA.ws.readyState).toBe(WebSocket.OPEN);

    const stoppedA = line(child, /^stopped a$/);
    expect((await fetch(`http://127.0.0.1:${a}/stop/a`)).status).toBe(200);
    expect(await Promise.all([onA.closed, otherOnA.closed])).toEqual([1001, 1001]);
    await stoppedA;
  }, 40_000);
});

describe('app.request on an app a Deno adapter has bound', () => {
  it('answers a WebSocket route with the placeholder an unbound app gives, not a runtime upgrade', async () => {
    child = startChild(resolveBin('deno'), ['run', '--allow-net', '--allow-env', '--allow-read', `${DIR}/ws-request-deno.ts`], ENV);
    await Promise.race([child.done, new Promise((r) => setTimeout(r, 20_000))]);
    const cases = child
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    expect(cases).toEqual([
      { case: 'unbound', status: 200, upgrade: true },
      { case: 'deno', status: 200, upgrade: true },
      { case: 'deno-deploy', status: 200, upgrade: true },
    ]);
    expect(child.exitCode).toBe(0);
  }, 30_000);
});
