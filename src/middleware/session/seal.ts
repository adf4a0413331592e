// Sealing: AES-256-GCM encryption with authentication, under keys derived with HKDF from
// the app's secrets. A sealed value can be neither read nor changed without a key.
import { fromBase64Url, toBase64Url } from '../../http/base64url.ts';
import { OPENED_MAX, Opened } from './opened.ts';

/** Encrypts and authenticates short texts; opens what any of its keys sealed. */
export interface Sealer {
  /** Seal with the current key (the first secret). */
  seal(plain: string): Promise<string>;
  /** The text a sealed value holds, or null when no key opens it (tampered, truncated, foreign or too long). */
  unseal(sealed: string): Promise<string | null>;
}

/** Secrets shorter than this are refused: HKDF cannot add entropy a short password lacks. */
export const MIN_SECRET_LENGTH = 32;
/** Old keys kept for reading: each one is a decryption attempt on a foreign cookie. */
const MAX_KEYS = 8;
/** Longer input is refused before it is decoded: nothing Rove seals comes near it. */
const MAX_SEALED_LENGTH = 16 * 1024;

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Check the secrets a feature was given, when it is registered: one to eight strings of at
 * least 32 bytes each. Returns them as a list.
 *
 * @example
 * const keys = checkSecrets(process.env.COOKIE_SECRETS!.split(','), 'myFeature()');
 */
export function checkSecrets(keys: string | readonly string[] | undefined, feature: string): readonly string[] {
  const list = typeof keys === 'string' ? [keys] : keys;
  if (!Array.isArray(list) || list.length === 0) throw new TypeError(`${feature} needs keys: [currentSecret, ...olderSecrets]`);
  if (list.length > MAX_KEYS) throw new RangeError(`${feature} takes at most ${MAX_KEYS} keys (the current one and the older ones still read)`);
  list.forEach((key, i) => {
    if (typeof key !== 'string' || encoder.encode(key).length < MIN_SECRET_LENGTH)
      throw new RangeError(
        `${feature}: keys[${i}] is shorter than ${MIN_SECRET_LENGTH} bytes; use a long random secret (for example 32 random bytes in base64)`,
      );
  });
  return list;
}

export interface SealerOptions {
  /**
   * Sealed values remembered once opened, by their exact text (least recently used out; 0: none).
   * Default 1024. The memory is the sealer's own, so it never outlives its keys.
   */
  remember?: number;
}

/**
 * A sealer for one purpose. `purpose` enters the key derivation and the authenticated data,
 * so a value sealed for one cookie name does not open as another.
 *
 * @example
 * const box = sealer(['a-secret-of-at-least-32-characters!!'], 'rove.sid');
 * const sealed = await box.seal('{"user":1}');
 * await box.unseal(sealed); // '{"user":1}'
 */
export function sealer(secrets: readonly string[], purpose: string, options: SealerOptions = {}): Sealer {
  const aad = encoder.encode(purpose);
  const remember = options.remember ?? OPENED_MAX;
  if (!Number.isInteger(remember) || remember < 0) throw new RangeError('sealer(): remember is a whole number of values (0: none)');
  // A decryption of the same text under the same keys always gives the same answer: a browser
  // resending one cookie is opened once. Only what opened goes in, never a failure.
  const opened = remember > 0 ? new Opened(remember) : undefined;
  // Derived on first use, not when registered: Workers refuse crypto work at global scope.
  let deriving: Promise<CryptoKey[]> | undefined;
  // Once derived, the keys are used without awaiting a promise on every request.
  let keys: CryptoKey[] | undefined;
  const derived = () => (deriving ??= Promise.all(secrets.map((s) => deriveKey(s, purpose))).then((k) => (keys = k)));
  return {
    async seal(plain) {
      const [key] = keys ?? (await derived());
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const bytes = encoder.encode(plain);
      const cipher = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, key, bytes));
      const out = new Uint8Array(1 + IV_BYTES + cipher.length);
      out[0] = VERSION;
      out.set(iv, 1);
      out.set(cipher, 1 + IV_BYTES);
      const sealed = toBase64Url(out);
      // The browser sends it back next: it opens without a decryption. Kept as unseal would give
      // it (a lone surrogate in `plain` comes back as U+FFFD).
      opened?.set(sealed, decoder.decode(bytes));
      return sealed;
    },
    async unseal(sealed) {
      if (typeof sealed !== 'string' || sealed.length > MAX_SEALED_LENGTH) return null;
      const known = opened?.get(sealed);
      if (known !== undefined) return known;
      const bytes = fromBase64Url(sealed);
      if (bytes === null || bytes.length < 1 + IV_BYTES + TAG_BYTES || bytes[0] !== VERSION) return null;
      const iv = bytes.subarray(1, 1 + IV_BYTES);
      const cipher = bytes.subarray(1 + IV_BYTES);
      for (const key of keys ?? (await derived())) {
        try {
          const plain = decoder.decode(await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: aad }, key, cipher));
          opened?.set(sealed, plain);
          return plain;
        } catch {
          // not this key (or not valid UTF-8): try the next one
        }
      }
      return null;
    },
  };
}

async function deriveKey(secret: string, purpose: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode('rove/seal/v1'), info: encoder.encode(purpose) },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}
