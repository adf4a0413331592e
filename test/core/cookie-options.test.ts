import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deleteCookie, getCookie, getSignedCookie, setCookie, setSignedCookie, signCookieValue, verifyCookieValue } from '../../src/http/cookie.ts';
import { parseCookies, serializeCookie } from '../../src/http/cookies.ts';
import { App } from '../../src/index.ts';

const KEY = 'cookie-signing-secret-0123456789';
const OLD = 'older-cookie-signing-secret-0123';

/** The Cookie header a browser would send back for these Set-Cookie values. */
function jar(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

describe('signed cookies', () => {
  function signedApp(signWith: string[], verifyWith: string[]) {
    return new App()
      .get('/set', async (c) => {
        await setSignedCookie(c, 'uid', c.req.query('v') ?? '42', signWith, { httpOnly: true });
        return c.text('set');
      })
      .get('/get', async (c) => c.json({ uid: (await getSignedCookie(c, 'uid', verifyWith)) ?? null }));
  }

  it('reads back what it wrote', async () => {
    const app = signedApp([KEY], [KEY]);
    const set = await app.request('/set');
    expect(set.headers.get('set-cookie')).toMatch(/^uid=42\.[^;]+%3D; Path=\/; HttpOnly$/);
    expect(await (await app.request('/get', { headers: { cookie: jar(set) } })).json()).toEqual({ uid: '42' });
  });

  it('gives undefined for no cookie and false for a bad signature', async () => {
    const app = signedApp([KEY], [KEY]);
    expect(await (await app.request('/get')).json()).toEqual({ uid: null });
    const set = await app.request('/set');
    const tampered = jar(set).replace('uid=42', 'uid=43');
    expect(await (await app.request('/get', { headers: { cookie: tampered } })).json()).toEqual({ uid: false });
    expect(await (await app.request('/get', { headers: { cookie: 'uid=42' } })).json()).toEqual({ uid: false });
  });

  it('signs with the first key and verifies with any: a cookie signed before a rotation still reads', async () => {
    const before = await signedApp([OLD], [OLD]).request('/set');
    const rotated = signedApp([KEY, OLD], [KEY, OLD]);
    expect(await (await rotated.request('/get', { headers: { cookie: jar(before) } })).json()).toEqual({ uid: '42' });
    const after = await rotated.request('/set');
    expect(await (await signedApp([KEY], [KEY]).request('/get', { headers: { cookie: jar(after) } })).json()).toEqual({ uid: '42' });
    // Once the old key is dropped, its cookies no longer verify.
    expect(await (await signedApp([KEY], [KEY]).request('/get', { headers: { cookie: jar(before) } })).json()).toEqual({ uid: false });
  });

  it('refuses empty keys', async () => {
    await expect(signCookieValue('x', [])).rejects.toThrow(TypeError);
    await expect(signCookieValue('x', '')).rejects.toThrow(TypeError);
  });

  it('round-trips any value, and no other value verifies (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), async (value, other) => {
        const signed = await signCookieValue(value, [KEY]);
        // Through a real header: serialized, then parsed as a server would.
        const header = serializeCookie('s', signed).split(';')[0];
        expect(await verifyCookieValue(parseCookies(header).s, [OLD, KEY])).toBe(value);
        if (other !== value) expect(await verifyCookieValue(`${other}${signed.slice(signed.lastIndexOf('.'))}`, [KEY])).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('never throws on any cookie text (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), async (text) => {
        expect(await verifyCookieValue(text, [KEY])).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});

describe('cookie prefixes', () => {
  it('__Secure- needs Secure; __Host- needs Secure, Path=/ and no Domain', () => {
    expect(() => serializeCookie('__Secure-a', '1')).toThrow(TypeError);
    expect(serializeCookie('__Secure-a', '1', { secure: true })).toBe('__Secure-a=1; Path=/; Secure');
    expect(serializeCookie('__Secure-a', '1', { sameSite: 'None' })).toContain('; Secure');
    expect(() => serializeCookie('__Host-a', '1')).toThrow(TypeError);
    expect(() => serializeCookie('__Host-a', '1', { secure: true, domain: 'example.com' })).toThrow(/Domain/);
    expect(() => serializeCookie('__Host-a', '1', { secure: true, path: '/app' })).toThrow(/Path/);
    expect(serializeCookie('__Host-a', '1', { secure: true })).toBe('__Host-a=1; Path=/; Secure');
    // Browsers match prefixes case-insensitively.
    expect(() => serializeCookie('__host-a', '1')).toThrow(TypeError);
  });

  it('the prefix option adds the prefix and its defaults, and still refuses what breaks them', () => {
    expect(serializeCookie('sid', '1', { prefix: 'host' })).toBe('__Host-sid=1; Path=/; Secure');
    expect(serializeCookie('sid', '1', { prefix: 'secure', path: '/app' })).toBe('__Secure-sid=1; Path=/app; Secure');
    expect(() => serializeCookie('sid', '1', { prefix: 'host', secure: false })).toThrow(TypeError);
    expect(() => serializeCookie('sid', '1', { prefix: 'host', domain: 'example.com' })).toThrow(TypeError);
    expect(() => serializeCookie('sid', '1', { prefix: 'other' as never })).toThrow(TypeError);
  });

  it('setCookie throws from a handler, a 500 rather than a cookie the browser would drop', async () => {
    const app = new App().get('/', (c) => {
      setCookie(c, '__Host-sid', '1', { secure: true, path: '/app' });
      return c.text('x');
    });
    expect((await app.request('/')).status).toBe(500);
  });
});

describe('priority and partitioned', () => {
  it('writes Priority and Partitioned (which implies Secure), and refuses an unknown priority', () => {
    expect(serializeCookie('a', '1', { priority: 'High', partitioned: true })).toBe('a=1; Path=/; Secure; Partitioned; Priority=High');
    expect(() => serializeCookie('a', '1', { priority: 'High; Domain=evil' as never })).toThrow(TypeError);
  });
});

describe('deleteCookie(c, name, options)', () => {
  it('sends the attributes the cookie was set with, and returns the value the request carried', async () => {
    const app = new App().post('/logout', (c) => {
      const had = deleteCookie(c, 'sid', { prefix: 'host', sameSite: 'Strict', partitioned: true, httpOnly: true });
      deleteCookie(c, 'theme', { path: '/app', domain: 'example.com', secure: true, sameSite: 'Lax' });
      return c.json({ had: had ?? null, theme: getCookie(c, 'theme') ?? null });
    });
    const res = await app.request('/logout', { method: 'POST', headers: { cookie: '__Host-sid=abc; theme=dark' } });
    expect(await res.json()).toEqual({ had: 'abc', theme: 'dark' });
    expect(res.headers.getSetCookie()).toEqual([
      '__Host-sid=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; HttpOnly; Secure; SameSite=Strict; Partitioned',
      'theme=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Domain=example.com; Path=/app; Secure; SameSite=Lax',
    ]);
  });

  it('refuses to delete a __Host- cookie without Secure, as the browser would ignore it', async () => {
    const app = new App().get('/', (c) => {
      deleteCookie(c, '__Host-sid');
      return c.text('x');
    });
    expect((await app.request('/')).status).toBe(500);
  });
});

describe('serializeCookie and parseCookies (property)', () => {
  it('any value round-trips through Set-Cookie and Cookie, with any options that serialize', () => {
    const options = fc.record(
      {
        maxAge: fc.integer({ min: 0, max: 1e6 }),
        httpOnly: fc.boolean(),
        secure: fc.boolean(),
        sameSite: fc.constantFrom('Strict', 'Lax', 'None') as fc.Arbitrary<'Strict' | 'Lax' | 'None'>,
        partitioned: fc.boolean(),
        priority: fc.constantFrom('Low', 'Medium', 'High') as fc.Arbitrary<'Low' | 'Medium' | 'High'>,
        prefix: fc.constantFrom('secure', 'host') as fc.Arbitrary<'secure' | 'host'>,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/), fc.string(), options, (name, value, opts) => {
        let line: string;
        try {
          line = serializeCookie(name, value, opts);
        } catch (error) {
          // Only a prefix rule can refuse these: Secure turned off by hand.
          expect(error).toBeInstanceOf(TypeError);
          expect(opts.prefix !== undefined && opts.secure === false).toBe(true);
          return;
        }
        const [pair, ...attributes] = line.split('; ');
        const parsed = parseCookies(pair);
        const full = opts.prefix === 'host' ? `__Host-${name}` : opts.prefix === 'secure' ? `__Secure-${name}` : name;
        expect(parsed[full]).toBe(value);
        if (opts.prefix !== undefined) expect(attributes).toContain('Secure');
        if (opts.prefix === 'host') expect(attributes.some((a) => a.startsWith('Domain='))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
