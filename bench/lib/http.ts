// One-off requests for readiness probes and correctness checks (not load).
import { request } from 'node:http';
import type { Child } from '../../dev/proc.ts';
import type { RequestSpec } from './scenarios.ts';

export interface ProbeResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function send(port: number, spec: RequestSpec, timeoutMs = 5000): Promise<ProbeResponse> {
  return new Promise((ok, fail) => {
    const headers: Record<string, string | number> = { ...spec.headers };
    if (spec.body !== undefined) headers['content-length'] = Buffer.byteLength(spec.body);
    const req = request({ host: '127.0.0.1', port, method: spec.method, path: spec.path, headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', fail);
    });
    req.on('timeout', () => req.destroy(new Error(`no response within ${timeoutMs} ms`)));
    req.on('error', fail);
    req.end(spec.body);
  });
}

/**
 * Polls a just-started server until it answers `probe` (any answer counts).
 * Throws, with the server's last output, when it exits first or stays silent past `timeoutMs`.
 */
export async function firstAnswer(port: number, probe: RequestSpec, child: Child, timeoutMs: number, pollMs: number): Promise<ProbeResponse> {
  const t0 = performance.now();
  for (;;) {
    if (child.exited) throw new Error(`exited (${child.exitSignal ?? `code ${child.exitCode}`}) before answering: ${child.output() || '(no output)'}`);
    if (performance.now() - t0 > timeoutMs) throw new Error(`no HTTP answer within ${timeoutMs / 1000} s: ${child.output() || '(no output)'}`);
    try {
      return await send(port, probe, 2000);
    } catch {
      await new Promise((ok) => setTimeout(ok, pollMs));
    }
  }
}
