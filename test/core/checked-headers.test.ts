// The binding's header check (Bun, Deno) and the responses that may skip it: a helper's, or one
// middleware marked with markChecked, as long as no middleware read c.res afterwards.
import { describe, expect, it } from 'vitest';
import { cors } from '../../src/cors/index.ts';
import { App } from '../../src/index.ts';
import { checkHeaders, isChecked, markChecked } from '../../src/response.ts';

/** An app bound like Bun's: every response not trusted goes through checkHeaders; `checked` counts the full checks. */
function boundApp() {
  const app = new App();
  const seen = { full: 0 };
  app.bind({
    runtime: 'test',
    address: () => undefined,
    finish: (res, built) => {
      if (!built) seen.full++;
      checkHeaders(res, built);
      return res;
    },
  });
  return { app, seen };
}

const BAD = 'a\u0001b';

describe('markChecked', () => {
  it('marks a Response, and only that one', () => {
    const res = markChecked(new Response(null, { status: 204 }));
    expect(isChecked(res)).toBe(true);
    expect(isChecked(res.clone())).toBe(false);
    expect(isChecked(new Response(null))).toBe(false);
  });

  it('lets a marked response skip the full check; an unmarked one is checked', async () => {
    const { app, seen } = boundApp();
    app.get('/marked', () => markChecked(new Response('ok', { headers: { 'x-a': '1' } })));
    app.get('/plain', () => new Response('ok', { headers: { 'x-a': '1' } }));
    expect((await app.fetch(new Request('http://localhost/marked'))).status).toBe(200);
    expect(seen.full).toBe(0);
    expect((await app.fetch(new Request('http://localhost/plain'))).status).toBe(200);
    expect(seen.full).toBe(1);
  });

  it('checks a marked response again once middleware read c.res, and refuses what it added', async () => {
    const { app, seen } = boundApp();
    app.use(async (c, next) => {
      await next();
      c.res.headers.set('x-added', BAD);
    });
    app.get('/marked', () => markChecked(new Response('ok')));
    const res = await app.fetch(new Request('http://localhost/marked'));
    expect(seen.full).toBeGreaterThanOrEqual(1);
    expect(res.status).toBe(500);
    expect(res.headers.get('x-added')).toBeNull();
  });

  it('a cors preflight skips the full check, and is still checked when middleware changed it', async () => {
    const { app, seen } = boundApp();
    let late = false;
    app.use(async (c, next) => {
      await next();
      if (late) c.res.headers.set('x-late', 'fine');
    });
    app.use('/api', cors({ origin: 'https://app.example', headers: ['content-type'] }));
    const ask = () =>
      app.fetch(
        new Request('http://localhost/api/x', {
          method: 'OPTIONS',
          headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
        }),
      );
    for (let i = 0; i < 3; i++) expect((await ask()).status).toBe(204);
    expect(seen.full).toBe(0);
    late = true;
    const res = await ask();
    expect(res.status).toBe(204);
    expect(res.headers.get('x-late')).toBe('fine');
    expect(seen.full).toBe(1);
  });
});
