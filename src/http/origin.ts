// Origins as the Origin header carries them: `scheme://host[:port]`, lower-case, no path.

/** Longer Origin values are not treated as origins at all. */
const MAX_ORIGIN_LENGTH = 2048;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const ORIGIN_SYNTAX = /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#\\\u0000-\u001f\u007f]+$/;

/**
 * An origin from an app's options, normalised (`https://App.example:443/` → `https://app.example`),
 * or a TypeError naming `feature` when it is not one.
 */
export function normalizeOrigin(value: string, feature: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || url.origin === 'null' || url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '')
    throw new TypeError(`${feature}: ${JSON.stringify(value)} is not an origin (scheme, host and port only, like https://app.example)`);
  return url.origin;
}

/** Whether a request's Origin header has an origin's shape (safe to repeat in a response header). */
export function isOriginSyntax(value: string): boolean {
  return value.length <= MAX_ORIGIN_LENGTH && ORIGIN_SYNTAX.test(value);
}

/** Whether `origin` is the request URL's: a string compare first, the URL parser only when that fails (an odd case, a default port). */
export function isSameOrigin(origin: string, url: string): boolean {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  if (origin === (slash === -1 ? url : url.slice(0, slash))) return true;
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}
