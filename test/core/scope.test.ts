import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { App, type Context, type Next } from '../../src/index.ts';

// The rule, stated independently of the implementation: a middleware on a prefix runs exactly when
// the request's decoded segments start with the prefix's segments (static text equal, a param
// non-empty, a constrained param matching its pattern), however the path was percent-encoded.

const WORDS = ['a', 'b', 'ab', 'admin', 'x'];
type PrefixSeg = { kind: 'static'; text: string } | { kind: 'param' } | { kind: 'constrained'; re: string };

const prefixSeg: fc.Arbitrary<PrefixSeg> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...WORDS).map((text) => ({ kind: 'static' as const, text })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'param' as const }) },
  { weight: 1, arbitrary: fc.constantFrom('[ab]+', 'a.*').map((re) => ({ kind: 'constrained' as const, re })) },
);

const routeSeg = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 2, arbitrary: fc.constant(':p') },
  { weight: 1, arbitrary: fc.constant(':q?') },
  { weight: 1, arbitrary: fc.constantFrom(':c{[ab]+}', ':d{.*}') },
);

const route = fc.tuple(fc.array(routeSeg, { minLength: 0, maxLength: 3 }), fc.boolean()).map(([segs, wildcard]) => {
  // Param names must be unique within a route.
  const named = segs.map((s, i) => s.replace(/^:([a-z])/, `:$1${i}`));
  return `/${[...named, ...(wildcard ? ['*'] : [])].join('/')}`;
});

function prefixText(segs: PrefixSeg[], i: number): string {
  const body = segs.map((s, j) => (s.kind === 'static' ? s.text : s.kind === 'param' ? `:m${i}_${j}` : `:m${i}_${j}{${s.re}}`)).join('/');
  return `/${body}`;
}

function under(segments: string[], prefix: PrefixSeg[]): boolean {
  if (segments.length < prefix.length) return false;
  return prefix.every((p, i) => {
    const s = segments[i];
    if (p.kind === 'static') return s === p.text;
    if (p.kind === 'param') return s.length > 0;
    return new RegExp(`^(?:${p.re})$`).test(s);
  });
}

/** Percent-encode some characters of a segment (a letter as %XX, upper or lower hex). */
const encodedSegment = (text: string) =>
  fc
    .array(fc.integer({ min: 0, max: 3 }), { minLength: text.length, maxLength: text.length })
    .map((modes) =>
      [...text]
        .map((ch, i) => (modes[i] === 1 ? `%${ch.charCodeAt(0).toString(16).toUpperCase()}` : modes[i] === 2 ? `%${ch.charCodeAt(0).toString(16)}` : ch))
        .join(''),
    );

const requestPath = fc
  .array(fc.constantFrom(...WORDS, 'abba', 'zz'), { minLength: 1, maxLength: 5 })
  .chain((segs) => fc.tuple(...segs.map(encodedSegment)).map((enc) => ({ segments: segs, path: `/${enc.join('/')}` })));

function build(routes: string[], prefixes: PrefixSeg[][]): App<any> | null {
  const app = new App<{ Variables: { ran: number[] } }>();
  prefixes.forEach((p, i) => {
    app.use(prefixText(p, i), async (c: Context<any>, next: Next) => {
      c.set('ran', [...(c.get('ran') ?? []), i]);
      await next();
    });
  });
  const answer = (c: Context<any>) => c.json({ ran: c.get('ran') ?? [] });
  try {
    for (const r of routes) app.get(r, answer);
  } catch {
    return null;
  }
  app.notFound(answer);
  app.onError((_e, c) => answer(c));
  return app;
}

describe('middleware scope', () => {
  it('a guard runs exactly when the decoded path lies under its prefix, however it is encoded (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(route, { minLength: 1, maxLength: 6 }),
        fc.array(fc.array(prefixSeg, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
        fc.array(requestPath, { minLength: 1, maxLength: 4 }),
        async (routes, prefixes, requests) => {
          const app = build(routes, prefixes);
          fc.pre(app !== null);
          // A table that cannot compile (a route registered twice) answers 500 to everything.
          fc.pre((await app!.fetch(new Request('http://localhost/'))).status !== 500);
          for (const { segments, path } of requests) {
            const res = await app!.fetch(new Request(`http://localhost${path}`));
            const { ran } = (await res.json()) as { ran: number[] };
            const expected = prefixes.map((p, i) => (under(segments, p) ? i : -1)).filter((i) => i >= 0);
            expect({ path, status: res.status, ran }).toEqual({ path, status: res.status, ran: expected });
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a 404 runs the same layers with many prefixes, shared or not (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(prefixSeg, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 24 }),
        fc.array(requestPath, { minLength: 1, maxLength: 6 }),
        async (prefixes, requests) => {
          const app = build(['/zz/only'], prefixes)!;
          for (const { segments, path } of requests) {
            const res = await app.fetch(new Request(`http://localhost${path}`));
            const { ran } = (await res.json()) as { ran: number[] };
            const expected = prefixes.map((p, i) => (under(segments, p) ? i : -1)).filter((i) => i >= 0);
            expect({ path, ran }).toEqual({ path, ran: expected });
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a 404 runs the right layers past the 64 sets of layers kept', async () => {
    // Seven scopes that each take a path whose one segment holds their letter: 128 sets of layers.
    const letters = [...'abcdefg'];
    const app = new App<{ Variables: { ran: number[] } }>();
    letters.forEach((l, i) =>
      app.use(`/:s${i}{.*${l}.*}`, (c: Context<any>, next: Next) => {
        c.set('ran', [...(c.get('ran') ?? []), i]);
        return next();
      }),
    );
    app.notFound((c) => c.json({ ran: c.get('ran') ?? [] }));
    for (let set = 1; set < 128; set++) {
      const path = letters.filter((_, i) => set & (1 << i)).join('');
      const { ran } = (await (await app.fetch(new Request(`http://localhost/${path}`))).json()) as { ran: number[] };
      expect(ran).toEqual(letters.flatMap((l, i) => (path.includes(l) ? [i] : [])));
    }
  });

  it('the issue’s bypasses are closed: an encoded prefix segment still runs the guard, in a sub-app too', async () => {
    const guard = (c: Context, next: Next) => (c.req.header('x-auth') === 'yes' ? next() : c.text('denied', 401));
    const app = new App().use('/admin', guard).get('/:section/report', (c) => c.text(c.req.param('section')!));
    app.use('/files/secret', guard).get('/files/*', (c) => c.text(c.req.param('*')!));
    const sub = new App().use('/admin', guard).get('/:section/report', (c) => c.text('sub'));
    app.route('/sub', sub);
    const status = async (path: string) => (await app.fetch(new Request(`http://localhost${path}`))).status;
    expect(await status('/adm%69n/report')).toBe(401);
    expect(await status('/files/%73ecret/x')).toBe(401);
    expect(await status('/files/secret%2Fx')).toBe(400);
    expect(await status('/sub/adm%69n/report')).toBe(401);
    expect(await status('/other/report')).toBe(200);
    expect(await status('/files/public/x')).toBe(200);
  });

  it('a 404 or 405 runs the middleware covering the path, composed once', async () => {
    const seen: string[] = [];
    const app = new App()
      .use('/api', async (c, next) => {
        seen.push(c.path);
        await next();
      })
      .get('/api/users', (c) => c.text('users'));
    expect((await app.fetch(new Request('http://localhost/api/nope'))).status).toBe(404);
    expect((await app.fetch(new Request('http://localhost/%61pi/nope'))).status).toBe(404);
    expect((await app.fetch(new Request('http://localhost/api/users', { method: 'POST' }))).status).toBe(405);
    expect((await app.fetch(new Request('http://localhost/elsewhere'))).status).toBe(404);
    expect(seen).toEqual(['/api/nope', '/%61pi/nope', '/api/users']);
  });
});
