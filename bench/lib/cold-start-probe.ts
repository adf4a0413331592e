// One cold start: spawn the server, poll its port with a real HTTP GET until one is answered,
// read the CPU the process spent by then, stop it and wait for it to exit.
//
// The probe is a raw TCP socket (node:net) writing one HTTP/1.1 request by hand: no HTTP
// client, agent or pool in the loop, so a refused connect costs one syscall round trip and
// the answer is seen as soon as its status line and headers arrive. Refused connects are
// retried after `pollMs` (default 1 ms: a tight loop that still leaves the server the CPU on
// a small machine; 0 retries at once).
import { connect } from 'node:net';
import { type Child, descendants, readStat, startChild, stopChild } from '../../dev/proc.ts';
import { CLK_TCK } from './proc-stats.ts';

export interface Answer {
  status: number;
  /** performance.now() when the response's headers had arrived. */
  at: number;
}

type Attempt = { kind: 'answer'; answer: Answer } | { kind: 'retry' };

/** One GET over a fresh connection; 'retry' when refused, reset or closed before an answer. */
function attempt(port: number, path: string, deadline: number): Promise<Attempt> {
  return new Promise((done) => {
    const socket = connect({ port, host: '127.0.0.1', noDelay: true });
    // A server that accepts but never answers must not hold the loop past the deadline.
    const timer = setTimeout(() => finish({ kind: 'retry' }), Math.max(0, deadline - performance.now()));
    let buf = '';
    let settled = false;
    const finish = (a: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      done(a);
    };
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => {
      buf += chunk.toString('latin1');
      if (buf.indexOf('\r\n\r\n') < 0) return;
      const at = performance.now();
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(buf);
      finish(m ? { kind: 'answer', answer: { status: Number(m[1]), at } } : { kind: 'retry' });
    });
    socket.on('error', () => finish({ kind: 'retry' }));
    socket.on('close', () => finish({ kind: 'retry' }));
  });
}

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** Polls until the first answer; throws when the process exits first or the deadline passes. */
export async function firstAnswer(child: Child, port: number, path: string, deadline: number, pollMs: number): Promise<Answer> {
  for (;;) {
    if (child.exited) throw new Error(`exited (code ${child.exitCode}, signal ${child.exitSignal}) before answering: ${child.output().slice(-600)}`);
    if (performance.now() > deadline) throw new Error(`no answer in time: ${child.output().slice(-600)}`);
    const a = await attempt(port, path, deadline);
    if (a.kind === 'answer') return a.answer;
    if (pollMs > 0) await sleep(pollMs);
  }
}

/**
 * CPU (user + system, every thread, ms) of the server: /proc/<pid>/stat's utime + stime in clock
 * ticks (CLK_TCK, 10 ms steps). The pid is the runtime binary itself (dev/proc.ts resolves
 * node_modules/.bin to the real executable, never an npm shim); any process it started is added.
 */
export function serverCpuMs(pid: number): number | null {
  const own = readStat(pid);
  if (!own) return null;
  let ticks = own.cpuTicks;
  for (const d of descendants(pid)) ticks += readStat(d)?.cpuTicks ?? 0;
  return (ticks * 1000) / CLK_TCK;
}

export interface StartOptions {
  bin: string;
  args: string[];
  env: Record<string, string>;
  port: number;
  path: string;
  timeoutMs: number;
  pollMs: number;
}

export interface StartResult {
  firstAnswerMs: number;
  cpuMs: number | null;
  status: number;
}

/** Spawns, times the first answer, reads the CPU, then stops the process (SIGTERM, then SIGKILL) and waits for its exit. */
export async function coldStart(o: StartOptions): Promise<StartResult> {
  const t0 = performance.now();
  const child = startChild(o.bin, o.args, o.env);
  try {
    const answer = await firstAnswer(child, o.port, o.path, t0 + o.timeoutMs, o.pollMs);
    const cpuMs = serverCpuMs(child.pid);
    return { firstAnswerMs: answer.at - t0, cpuMs, status: answer.status };
  } finally {
    await stopChild(child, 2000);
  }
}
