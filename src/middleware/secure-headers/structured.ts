// Permissions-Policy and Reporting-Endpoints: dictionaries of RFC 8941 structured fields,
// written from objects and checked once, when secureHeaders() is called.

/**
 * Who may use a feature: `true` (`*`, everyone), `false` or `[]` (`()`, no one), or a list of
 * `'self'`, `'src'`, `'*'` and origins (`['self', 'https://maps.example']`).
 */
export type PermissionsAllowlist = boolean | readonly string[];

/** Feature → allowlist, in camelCase (`displayCapture`) or as written (`display-capture`). */
export type PermissionsPolicy = Record<string, PermissionsAllowlist | undefined>;

const FEATURE = /^[a-z][a-z0-9-]*$/;
// An sf-string holds printable ASCII without `"` and `\` (escapes would be allowed, but an origin never needs them).
const SF_STRING = /^[\u0020-\u0021\u0023-\u005b\u005d-\u007e]*$/;
// An sf-key.
const KEY = /^[a-z*][a-z0-9_\-.*]*$/;
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/\s]+$/i;
/** At most this many features or endpoints: every one is a header's worth of work for the browser. */
const MAX_ENTRIES = 128;

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`);
}

/**
 * `camera=(), fullscreen=self, geolocation=(self "https://maps.example"), payment=*`.
 *
 * @example
 * permissionsPolicyHeader({ camera: [], fullscreen: ['self'], geolocation: ['self', 'https://maps.example'] });
 */
export function permissionsPolicyHeader(policy: PermissionsPolicy): string {
  const out: string[] = [];
  for (const key of Object.keys(policy)) {
    const list = policy[key];
    if (list === undefined) continue;
    const name = kebab(key);
    if (!FEATURE.test(name)) throw new TypeError(`secureHeaders: invalid Permissions-Policy feature ${JSON.stringify(key)}`);
    out.push(`${name}=${allowlist(name, list)}`);
  }
  if (out.length > MAX_ENTRIES) throw new TypeError(`secureHeaders: more than ${MAX_ENTRIES} Permissions-Policy features`);
  return out.join(', ');
}

function allowlist(feature: string, list: PermissionsAllowlist): string {
  if (list === true) return '*';
  if (list === false) return '()';
  if (!Array.isArray(list)) throw new TypeError(`secureHeaders: Permissions-Policy ${feature} takes true, false or a list`);
  if (list.includes('*')) return '*';
  const items = list.map((item: unknown) => {
    if (item === 'self' || item === 'src') return item;
    if (typeof item === 'string' && ORIGIN.test(item) && SF_STRING.test(item)) return `"${item}"`;
    throw new TypeError(`secureHeaders: Permissions-Policy ${feature}: ${JSON.stringify(item)} is not 'self', 'src', '*' or an origin`);
  });
  return items.length === 1 ? items[0] : `(${items.join(' ')})`;
}

/**
 * `default="https://r.example/reports", csp="https://r.example/csp"`.
 *
 * @example
 * reportingEndpointsHeader({ default: 'https://r.example/reports' });
 */
export function reportingEndpointsHeader(endpoints: Record<string, string>): string {
  const out: string[] = [];
  for (const name of Object.keys(endpoints)) {
    const url = endpoints[name];
    if (!KEY.test(name)) throw new TypeError(`secureHeaders: Reporting-Endpoints name ${JSON.stringify(name)} must be lower-case letters, digits, _ - . *`);
    if (typeof url !== 'string' || !SF_STRING.test(url) || !/^(https:\/\/|\/)/.test(url))
      throw new TypeError(`secureHeaders: Reporting-Endpoints ${name} must be an https URL or a path: ${JSON.stringify(url)}`);
    out.push(`${name}="${url}"`);
  }
  if (out.length > MAX_ENTRIES) throw new TypeError(`secureHeaders: more than ${MAX_ENTRIES} Reporting-Endpoints`);
  return out.join(', ');
}
