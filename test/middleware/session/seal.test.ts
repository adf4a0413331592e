import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from '../../../src/http/base64url.ts';
import { checkSecrets, sealer } from '../../../src/middleware/session/seal.ts';

const KEY_A = 'aaaaaaaaaaaaaaaa-first-secret-0123';
const KEY_B = 'bbbbbbbbbbbbbbbb-second-secret-456';
const KEY_C = 'cccccccccccccccc-third-secret-7890';

describe('base64url', () => {
  it('round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = toBase64Url(bytes);
        expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(fromBase64Url(text)).toEqual(bytes);
      }),
    );
  });

  it('gives null, never a throw, for text that is not base64url', () => {
    for (const bad of ['a', 'ab=c', 'a+b/', 'ab cd', 'é', 'abcde', '\r\n']) expect(fromBase64Url(bad)).toBeNull();
    fc.assert(fc.property(fc.string(), (s) => void fromBase64Url(s)));
  });
});

describe('seal > keys', () => {
  it('refuses missing, empty or short secrets when registered', () => {
    expect(() => checkSecrets(undefined, 'x')).toThrow(/needs keys/);
    expect(() => checkSecrets([], 'x')).toThrow(/needs keys/);
    expect(() => checkSecrets(['short'], 'x')).toThrow(/shorter than 32 bytes/);
    expect(() => checkSecrets([KEY_A, 'also-short'], 'x')).toThrow(/keys\[1\]/);
    expect(() => checkSecrets(Array(9).fill(KEY_A), 'x')).toThrow(/at most 8/);
    expect(checkSecrets(KEY_A, 'x')).toEqual([KEY_A]);
  });
});

describe('seal > round trip and tampering', () => {
  const box = sealer([KEY_A], 'purpose');

  it('opens what it sealed, for any text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200, unit: 'binary' }), async (text) => {
        expect(await box.unseal(await box.seal(text))).toBe(text);
      }),
      { numRuns: 60 },
    );
  });

  it('seals the same text differently each time (a fresh IV)', async () => {
    expect(await box.seal('x')).not.toBe(await box.seal('x'));
  });

  it('refuses any single bit flip', async () => {
    const sealed = await box.seal('{"user":"ada"}');
    const bytes = fromBase64Url(sealed)!;
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: bytes.length * 8 - 1 }), async (bit) => {
        const copy = bytes.slice();
        copy[bit >> 3] ^= 1 << (bit & 7);
        expect(await box.unseal(toBase64Url(copy))).toBeNull();
      }),
      { numRuns: 80 },
    );
  });

  it('refuses truncation and extension', async () => {
    const sealed = await box.seal('{"user":"ada"}');
    for (let n = 0; n < sealed.length; n++) expect(await box.unseal(sealed.slice(0, n))).toBeNull();
    expect(await box.unseal(`${sealed}A`)).toBeNull();
    expect(await box.unseal(`${sealed}AAAA`)).toBeNull();
  });

  it('refuses a value sealed under another key or for another purpose', async () => {
    const sealed = await sealer([KEY_B], 'purpose').seal('x');
    expect(await box.unseal(sealed)).toBeNull();
    expect(await box.unseal(await sealer([KEY_A], 'other').seal('x'))).toBeNull();
  });

  it('opens values sealed under older keys; seals only with the current one', async () => {
    const old = await sealer([KEY_B], 'purpose').seal('old');
    const rotated = sealer([KEY_A, KEY_B], 'purpose');
    expect(await rotated.unseal(old)).toBe('old');
    const fresh = await rotated.seal('new');
    expect(await sealer([KEY_A], 'purpose').unseal(fresh)).toBe('new');
    expect(await sealer([KEY_B], 'purpose').unseal(fresh)).toBeNull();
    expect(await sealer([KEY_C, KEY_A], 'purpose').unseal(old)).toBeNull();
  });

  it('refuses garbage and huge input without throwing', async () => {
    for (const bad of ['', 'x', '%%%', 'AQ', 'A'.repeat(100), 'a'.repeat(20_000), '\u0000\r\n']) expect(await box.unseal(bad)).toBeNull();
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 120 }), async (s) => {
        expect(await box.unseal(s)).toBeNull();
      }),
      { numRuns: 100 },
    );
  });
});
