// Signed cookies: `<value>.<HMAC-SHA256 of value, base64>`, the format Hono writes, so cookies
// signed by a Hono app keep verifying after a move. Signing and checking go through
// crypto.subtle; `verify` compares in constant time.

/** Signing secrets: one, or the current one first and older ones after it. */
export type CookieKeys = string | readonly string[];

const encoder = new TextEncoder();
/** Imported keys kept per secret; a few secrets per app, so a small bound is plenty. */
const MAX_KEYS = 32;
const imported = new Map<string, Promise<CryptoKey>>();
// base64 of 32 bytes: 43 characters and one `=`.
const SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;

/** The secrets as a checked list: at least one, each a non-empty string. */
export function checkKeys(keys: CookieKeys, feature: string): readonly string[] {
  const list = typeof keys === 'string' ? [keys] : keys;
  if (!Array.isArray(list) || list.length === 0 || list.some((k) => typeof k !== 'string' || k.length === 0))
    throw new TypeError(`${feature} needs keys: a non-empty secret, or a list of them (the first signs, any verifies)`);
  return list;
}

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = imported.get(secret);
  if (key === undefined) {
    if (imported.size >= MAX_KEYS) imported.delete(imported.keys().next().value as string);
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    imported.set(secret, key);
  }
  return key;
}

/**
 * `value.signature`, signed with the first key.
 *
 * @example
 * await signCookieValue('42', ['new-secret', 'old-secret']); // '42.q0c…='
 */
export async function signCookieValue(value: string, keys: CookieKeys): Promise<string> {
  const [first] = checkKeys(keys, 'signCookieValue()');
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(first), encoder.encode(value)));
  return `${value}.${btoa(String.fromCharCode(...signature))}`;
}

/**
 * The value of a signed `value.signature` if any key verifies it, else false.
 *
 * @example
 * await verifyCookieValue(signed, ['new-secret', 'old-secret']); // '42', or false
 */
export async function verifyCookieValue(signed: string, keys: CookieKeys): Promise<string | false> {
  const list = checkKeys(keys, 'verifyCookieValue()');
  const dot = signed.lastIndexOf('.');
  if (dot === -1) return false;
  const value = signed.slice(0, dot);
  const text = signed.slice(dot + 1);
  if (!SIGNATURE.test(text)) return false;
  const binary = atob(text);
  const signature = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) signature[i] = binary.charCodeAt(i);
  const data = encoder.encode(value);
  for (const secret of list) {
    // crypto.subtle.verify compares the MACs in constant time.
    if (await crypto.subtle.verify('HMAC', await hmacKey(secret), signature, data)) return value;
  }
  return false;
}
