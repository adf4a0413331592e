// Accept-Encoding (RFC 9110 §12.5.3): which content codings a client takes.

/** Longest Accept-Encoding header looked at; anything longer counts as identity only. */
export const MAX_ACCEPT_ENCODING = 512;

/**
 * The first of `offered` (in the server's order of preference) that the
 * client accepts with a non-zero q; undefined when none is.
 *
 * @example
 * pickEncoding('gzip, deflate, br', ['br', 'gzip']); // 'br'
 * pickEncoding('gzip;q=0, *', ['gzip']); // undefined
 */
export function pickEncoding<T extends string>(header: string | null, offered: readonly T[]): T | undefined {
  if (header === null || header === '' || header.length > MAX_ACCEPT_ENCODING) return undefined;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name === '') continue;
    let weight = 1;
    for (const p of params) {
      const [k, v] = p.trim().split('=');
      if (k === 'q') weight = Number(v);
    }
    if (!Number.isFinite(weight)) weight = 0;
    q.set(name.trim(), weight);
  }
  // The client's highest weight wins; among equal weights, the server's order of preference.
  const star = q.get('*');
  let best: T | undefined;
  let bestWeight = 0;
  for (const enc of offered) {
    const w = q.get(enc) ?? star ?? 0;
    if (w > bestWeight) {
      best = enc;
      bestWeight = w;
    }
  }
  return best;
}

/** Adds `value` to a Vary header value unless it is already listed (or `*`). */
export function addVary(current: string | null, value: string): string {
  if (current === null || current.trim() === '') return value;
  const names = current.split(',').map((s) => s.trim().toLowerCase());
  if (names.includes('*') || names.includes(value.toLowerCase())) return current;
  return `${current}, ${value}`;
}
