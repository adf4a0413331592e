import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromBase64Url, toBase64Url } from '../../../src/http/base64url.ts';
import { App } from '../../../src/index.ts';
import { getSession, session } from '../../../src/middleware/session/index.ts';
import { Opened } from '../../../src/middleware/session/opened.ts';
import { sealer } from '../../../src/middleware/session/seal.ts';

const KEY_A = 'aaaaaaaaaaaaaaaa-first-secret-0123';
const KEY_B = 'bbbbbbbbbbbbbbbb-second-secret-456';

/** Counts the AES-GCM decryptions made while `run` runs. */
async function decryptions<T>(run: () => Promise<T>): Promise<{ value: T; count: number }> {
  const spy = vi.spyOn(crypto.subtle, 'decrypt');
  try {
    const value = await run();
    return { value, count: spy.mock.calls.length };
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('Opened (the memory of opened values)', () => {
  it('drops the least recently used value first', () => {
    const o = new Opened(2);
    o.set('a', '1');
    o.set('b', '2');
    expect(o.get('a')).toBe('1'); // a is now the most recent
    o.set('c', '3');
    expect(o.get('b')).toBeUndefined();
    expect(o.get('a')).toBe('1');
    expect(o.get('c')).toBe('3');
    expect(o.size).toBe(2);
  });

  it('keeps within its character budget, and never keeps a pair over a sixteenth of it', () => {
    const o = new Opened(100, 200);
    o.set('k'.repeat(12), 'v'); // 13 chars: over 200 / 16
    expect(o.size).toBe(0);
    for (let i = 0; i < 30; i++) o.set(`key-${i}`.padEnd(5, '-'), 'value');
    expect(o.chars).toBeLessThanOrEqual(200);
    expect(o.get('key-29')).toBe('value');
    expect(o.get('key-0')).toBeUndefined();
  });

  it('keeps nothing with max 0', () => {
    const o = new Opened(0);
    o.set('a', '1');
    expect(o.get('a')).toBeUndefined();
  });

  it('behaves as a bounded LRU map under any sequence of operations (property)', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: fc.string({ maxLength: 6 }), value: fc.string({ minLength: 1, maxLength: 6 }) }),
      fc.record({ kind: fc.constant('get' as const), key: fc.string({ maxLength: 6 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 16, max: 200 }), fc.array(op, { maxLength: 80 }), (max, maxChars, ops) => {
        const o = new Opened(max, maxChars);
        // The model: insertion-ordered pairs, most recent last.
        let model: [string, string][] = [];
        for (const step of ops) {
          if (step.kind === 'get') {
            const hit = model.find(([k]) => k === step.key);
            expect(o.get(step.key)).toBe(hit?.[1]);
            if (hit) model = [...model.filter(([k]) => k !== step.key), hit];
          } else {
            o.set(step.key, step.value);
            const cost = step.key.length + step.value.length;
            if (cost > Math.floor(maxChars / 16)) continue;
            model = model.filter(([k]) => k !== step.key);
            const chars = () => model.reduce((n, [k, v]) => n + k.length + v.length, 0);
            while (model.length > 0 && (model.length >= max || chars() + cost > maxChars)) model.shift();
            model.push([step.key, step.value]);
          }
          expect(o.size).toBe(model.length);
          expect(o.size).toBeLessThanOrEqual(max);
          expect(o.chars).toBeLessThanOrEqual(maxChars);
        }
      }),
    );
  });
});

describe('sealer > remembered values', () => {
  it('opens a value it sealed, or opened once, without another decryption', async () => {
    const box = sealer([KEY_A], 'p');
    const sealed = await box.seal('{"user":"ada"}');
    const { value, count } = await decryptions(async () => [await box.unseal(sealed), await box.unseal(sealed)]);
    expect(value).toEqual(['{"user":"ada"}', '{"user":"ada"}']);
    expect(count).toBe(0);
    // A value sealed elsewhere (another process, same keys): one decryption, then remembered.
    const other = await sealer([KEY_A], 'p').seal('other');
    const again = await decryptions(async () => [await box.unseal(other), await box.unseal(other)]);
    expect(again.value).toEqual(['other', 'other']);
    expect(again.count).toBe(1);
  });

  it('never answers data for a tampered value, even once the original is remembered (property)', async () => {
    const box = sealer([KEY_A], 'p');
    const sealed = await box.seal('{"role":"user"}');
    expect(await box.unseal(sealed)).toBe('{"role":"user"}');
    const bytes = fromBase64Url(sealed)!;
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: bytes.length * 8 - 1 }), async (bit) => {
        const copy = bytes.slice();
        copy[bit >> 3] ^= 1 << (bit & 7);
        expect(await box.unseal(toBase64Url(copy))).toBeNull();
      }),
      { numRuns: 60 },
    );
    for (const variant of [`${sealed}A`, sealed.slice(0, -1), ` ${sealed}`, sealed.toUpperCase()]) expect(await box.unseal(variant)).toBeNull();
  });

  it('remembers nothing that failed: a foreign value is decrypted (and refused) every time', async () => {
    const box = sealer([KEY_A], 'p');
    const foreign = await sealer([KEY_B], 'p').seal('x');
    const { value, count } = await decryptions(async () => [await box.unseal(foreign), await box.unseal(foreign)]);
    expect(value).toEqual([null, null]);
    expect(count).toBe(2);
  });

  it('is per sealer: a sealer without the old key does not open what another one remembers', async () => {
    const before = sealer([KEY_A], 'p');
    const sealed = await before.seal('old');
    expect(await before.unseal(sealed)).toBe('old');
    expect(await sealer([KEY_B], 'p').unseal(sealed)).toBeNull();
    expect(await sealer([KEY_A], 'other purpose').unseal(sealed)).toBeNull();
  });

  it('is bounded by remember; remember 0 decrypts every time', async () => {
    const box = sealer([KEY_A], 'p', { remember: 2 });
    const source = sealer([KEY_A], 'p', { remember: 0 });
    const [a, b, c] = [await source.seal('a'), await source.seal('b'), await source.seal('c')];
    const first = await decryptions(async () => {
      for (const v of [a, b, c, b, c]) await box.unseal(v);
    });
    expect(first.count).toBe(3);
    const evicted = await decryptions(() => box.unseal(a));
    expect(evicted).toEqual({ value: 'a', count: 1 });
    const none = await decryptions(async () => [await source.unseal(a), await source.unseal(a)]);
    expect(none).toEqual({ value: ['a', 'a'], count: 2 });
    expect(() => sealer([KEY_A], 'p', { remember: -1 })).toThrow(/remember/);
  });

  it('answers what decryption would, lone surrogates included', async () => {
    const box = sealer([KEY_A], 'p');
    const fresh = sealer([KEY_A], 'p', { remember: 0 });
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40, unit: 'binary' }), fc.constantFrom('\ud800', '\udfff', ''), async (text, odd) => {
        const sealed = await box.seal(text + odd);
        expect(await box.unseal(sealed)).toBe(await fresh.unseal(sealed));
      }),
      { numRuns: 40 },
    );
  });
});

describe('session > remembered cookies', () => {
  const app = (remember?: number, maxAge = 60) => {
    const a = new App();
    a.use(session({ keys: [KEY_A], maxAge, ...(remember === undefined ? {} : { remember }) }));
    a.get('/set', async (c) => {
      await getSession(c).set('user', 'ada');
      return c.text('ok');
    });
    a.get('/get', async (c) => c.json((await getSession(c).all()) ?? null));
    return a;
  };
  const get = (a: App, cookie: string) => a.fetch(new Request('http://localhost/get', { headers: { cookie: `rove.sid=${cookie}` } }));
  const cookieOf = (res: Response) => res.headers.getSetCookie()[0]!.split(';')[0]!.slice('rove.sid='.length);

  it('still expires a remembered session at its expiry', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const a = app(undefined, 60);
    const cookie = cookieOf(await a.fetch(new Request('http://localhost/set')));
    const { value, count } = await decryptions(async () => (await get(a, cookie)).json());
    expect(value).toEqual({ user: 'ada' });
    expect(count).toBe(0);
    vi.setSystemTime(Date.now() + 61_000);
    expect(await (await get(a, cookie)).json()).toEqual({});
  });

  it('refuses a tampered cookie after the genuine one was remembered', async () => {
    const a = app();
    const cookie = cookieOf(await a.fetch(new Request('http://localhost/set')));
    expect(await (await get(a, cookie)).json()).toEqual({ user: 'ada' });
    const bytes = fromBase64Url(cookie)!;
    bytes[bytes.length - 1] ^= 1;
    expect(await (await get(a, toBase64Url(bytes))).json()).toEqual({});
  });

  it('with remember 0, decrypts the cookie on every request', async () => {
    const a = app(0);
    const cookie = cookieOf(await a.fetch(new Request('http://localhost/set')));
    const { count } = await decryptions(async () => {
      await get(a, cookie);
      await get(a, cookie);
    });
    expect(count).toBe(2);
    expect(() => session({ keys: [KEY_A], remember: 1.5 })).toThrow(/remember/);
  });
});
