// rove/otel on the runtime running this file: one request through a minimal
// tracer; prints the span names. Run by otel-runtimes.test.ts under Deno and
// Bun; otel-worker.ts serves it from workerd.
import { App } from '../../src/index.ts';
import { otel } from '../../src/otel/index.ts';

export async function check(): Promise<string> {
  const names: string[] = [];
  const tracer = {
    startSpan(name: string) {
      names.push(name);
      return { setStatus() {}, recordException() {}, end() {} };
    },
  };
  const app = new App();
  app.get('/users/:id', (c) => c.text('ok'));
  otel(app, { tracer: tracer as never });
  await app.fetch(new Request('http://localhost/users/1'));
  return names.join(',');
}

if ((import.meta as { main?: boolean }).main) console.log(await check());
