// Comparisons of secrets whose time does not depend on where the inputs differ.

const encoder = new TextEncoder();

/** Whether two byte arrays are equal, looking at every byte of the longer one whatever the contents. */
export function timingSafeEqualBytes(a: Uint8Array, b: Uint8Array): boolean {
  const length = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/**
 * Whether two strings are equal, in a time that tells nothing about either: both are hashed
 * with SHA-256 first, so even their lengths stay hidden, then the digests are compared in full.
 *
 * @example
 * if (await timingSafeEqual(given, expected)) …
 */
export async function timingSafeEqual(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([digest(a), digest(b)]);
  // Both digests matching is the test; the plain comparison after it rules out a hash collision.
  return timingSafeEqualBytes(x, y) && a === b;
}

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}
