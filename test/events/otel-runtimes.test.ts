// rove/otel needs only @opentelemetry/api: it loads and records spans on Deno, Bun and workerd too.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, ROOT, resolveBin, startChild, stopChild } from '../../dev/proc.ts';
import { bundleWorker, workerdConfig } from '../../dev/workerd.ts';

const SCRIPT = 'test/events/otel-runtime-check.ts';

async function output(bin: string, args: string[]): Promise<string> {
  const child = startChild(bin, args, { NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' });
  await Promise.race([child.done, new Promise((r) => setTimeout(r, 20_000))]);
  await stopChild(child);
  return child.output();
}

describe('rove/otel on other runtimes', () => {
  it('Deno', async () => {
    expect(await output(resolveBin('deno'), ['run', '--allow-env', '--allow-read', SCRIPT])).toBe('GET /users/:id');
  }, 30_000);

  it('Bun', async () => {
    expect(await output(resolveBin('bun'), [SCRIPT])).toBe('GET /users/:id');
  }, 30_000);

  it('workerd (bundled)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rove-otel-'));
    try {
      bundleWorker(join(ROOT, 'test/events/otel-worker.ts'), join(dir, 'worker.js'));
      const port = await freePort();
      writeFileSync(join(dir, 'config.capnp'), workerdConfig({ port, module: 'worker.js', compatibilityFlags: ['nodejs_compat'] }));
      const child = startChild(resolveBin('workerd'), ['serve', join(dir, 'config.capnp')], {});
      try {
        let body = '';
        for (let i = 0; i < 100 && body === ''; i++) {
          try {
            body = await (await fetch(`http://127.0.0.1:${port}/`)).text();
          } catch {
            await new Promise((r) => setTimeout(r, 100));
          }
        }
        expect(body).toBe('GET /users/:id');
      } finally {
        await stopChild(child);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
