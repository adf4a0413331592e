// examples/bench-fs (framework rove-fs) on all five runtimes: Node, Deno and Bun
// scan its routes directory, Deploy and workerd get it through the manifest.
// Every correctness check of the bench passes on it, and it answers exactly what
// examples/bench (the same app written as code, framework rove) answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../bench/lib/http.ts';
import { checkScenario } from '../../bench/lib/scenario-check.ts';
import { SCENARIOS } from '../../bench/lib/scenarios.ts';
import { RUNTIMES, type Running, start } from '../conformance/servers.ts';

// The thread pool on (the `workers` variant); where an entry cannot read env (workerd) both apps run without it.
const ENV = { BENCH_WORKERS: '1' };
const port = (s: Running) => Number(new URL(s.url).port);
// The same /test request as `test`; the listener variant only changes how the server is started.
const scenarios = SCENARIOS.filter((s) => s.frameworks.includes('rove-fs') && s.variant !== 'listener');

describe.each(RUNTIMES)('examples/bench-fs on %s', (runtime) => {
  let fs: Running;
  let code: Running;
  beforeAll(async () => {
    [fs, code] = await Promise.all([start(runtime, 'examples/bench-fs', '/test', ENV), start(runtime, 'examples/bench', '/test', ENV)]);
  });
  afterAll(async () => {
    await Promise.all([fs?.stop(), code?.stop()]);
  });

  it('passes every bench check that the code-routed app passes', async () => {
    const failed: string[] = [];
    for (const s of scenarios) {
      const [onFs, onCode] = await Promise.all([checkScenario(port(fs), s), checkScenario(port(code), s)]);
      if (onFs !== null && onCode === null) failed.push(`${s.id}: ${onFs}`);
    }
    expect(failed).toEqual([]);
  });

  it('answers every check request exactly as the code-routed app does', async () => {
    for (const s of scenarios) {
      for (const check of s.checks) {
        const [a, b] = await Promise.all([send(port(fs), check.request), send(port(code), check.request)]);
        const view = (r: typeof a) => ({ status: r.status, type: r.headers['content-type'], body: r.body });
        expect(view(a), `${s.id} / ${check.name}`).toEqual(view(b));
      }
    }
  });
});
