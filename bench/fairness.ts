// Per-connection fairness of a server under load: N connections, each keeping
// P pipelined GET requests in flight, for D seconds. Prints how many responses
// each connection got, the longest wait any connection saw between two
// responses, and how many connections the server closed. autocannon reports
// only totals; this is how workerd's starved pipelined connections were found
// (docs/benchmarks/methods.md).
//
//   node --import tsx bench/fairness.ts PORT [connections=100] [pipelining=10] [seconds=13] [path=/test]
import { connect, type Socket } from 'node:net';

interface Conn {
  socket: Socket;
  done: number;
  last: number;
  maxGap: number;
  closedAt: number | null;
}

export interface Fairness {
  total: number;
  rps: number;
  perConnection: { min: number; median: number; max: number };
  /** Longest gap between two responses on one connection, ms: median, 90th percentile and worst connection. */
  maxGapMs: { median: number; p90: number; max: number };
  /** Connections whose longest gap exceeded 10 s, autocannon's request timeout. */
  over10s: number;
  closedByServer: number;
}

export function probe(port: number, connections: number, pipelining: number, seconds: number, path = '/test'): Promise<Fairness> {
  const request = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
  const t0 = Date.now();
  let stopping = false;
  const conns: Conn[] = [];
  for (let i = 0; i < connections; i++) {
    const socket = connect(port, '127.0.0.1');
    const c: Conn = { socket, done: 0, last: Date.now(), maxGap: 0, closedAt: null };
    conns.push(c);
    socket.setNoDelay(true);
    socket.on('connect', () => socket.write(request.repeat(pipelining)));
    let buffer = '';
    socket.on('data', (d: Buffer) => {
      // Small fixed responses: counting status lines counts responses.
      buffer += d.toString('latin1');
      let n = 0;
      for (let k = buffer.indexOf('HTTP/1.1 '); k >= 0; k = buffer.indexOf('HTTP/1.1 ')) {
        buffer = buffer.slice(k + 9);
        n++;
      }
      if (n === 0) return;
      const now = Date.now();
      c.maxGap = Math.max(c.maxGap, now - c.last);
      c.last = now;
      c.done += n;
      if (!stopping) socket.write(request.repeat(n));
    });
    socket.on('close', () => {
      if (!stopping) c.closedAt = Date.now() - t0;
    });
    socket.on('error', () => {});
  }
  return new Promise((ok) =>
    setTimeout(() => {
      stopping = true;
      const now = Date.now();
      for (const c of conns) {
        if (c.closedAt === null) c.maxGap = Math.max(c.maxGap, now - c.last);
        c.socket.destroy();
      }
      const done = conns.map((c) => c.done).sort((a, b) => a - b);
      const gaps = conns.map((c) => c.maxGap).sort((a, b) => a - b);
      const total = done.reduce((a, b) => a + b, 0);
      const at = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;
      ok({
        total,
        rps: Math.round(total / seconds),
        perConnection: { min: done[0]!, median: at(done, 0.5), max: done[done.length - 1]! },
        maxGapMs: { median: at(gaps, 0.5), p90: at(gaps, 0.9), max: gaps[gaps.length - 1]! },
        over10s: gaps.filter((g) => g > 10_000).length,
        closedByServer: conns.filter((c) => c.closedAt !== null).length,
      });
    }, seconds * 1000),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [port, connections = '100', pipelining = '10', seconds = '13', path = '/test'] = process.argv.slice(2);
  if (!port) {
    console.error('usage: node --import tsx bench/fairness.ts PORT [connections] [pipelining] [seconds] [path]');
    process.exit(2);
  }
  console.log(JSON.stringify(await probe(Number(port), Number(connections), Number(pipelining), Number(seconds), path)));
}
