// rove/ip: allow or deny requests by client address (c.req.ip).

import type { Handler } from '../../core/compose.ts';
import type { Context } from '../../core/context.ts';
import { HttpError } from '../../core/errors.ts';
import type { IpRule } from '../../core/event-map.ts';
import { named } from '../../core/named.ts';
import { addressMatcher } from '../../http/trust-proxy.ts';

export interface IpRestrictionOptions {
  /** Addresses and CIDR ranges let in; when given, every other address is refused. */
  allow?: readonly string[];
  /** Addresses and CIDR ranges refused, even when `allow` covers them. */
  deny?: readonly string[];
}

/** Which rule refused a request. */
export type { IpRule } from '../../core/event-map.ts';

/**
 * Refuse requests by client address with 403 problem+json. `deny` is checked first, then `allow`.
 * The address is `c.req.ip`: the socket's peer, or what the app's trusted proxies forwarded
 * (`new App({ trustProxy: trustProxy([...]) })`, from `rove/trust-proxy`). A request whose address is unknown is refused. IPv4 addresses
 * match in their IPv4-mapped IPv6 form too (`::ffff:10.0.0.1`).
 *
 * @example
 * app.use('/admin', ipRestriction({ allow: ['10.0.0.0/8', '127.0.0.1', '::1'] }));
 */
export function ipRestriction(options: IpRestrictionOptions): Handler {
  const allow = options.allow === undefined ? undefined : matcher(options.allow);
  const deny = options.deny === undefined ? undefined : matcher(options.deny);
  if (allow === undefined && deny === undefined) throw new TypeError('ipRestriction() needs allow, deny, or both');
  const refuse = (c: Context<any, any>, rule: IpRule, ip: string | undefined, detail: string): never => {
    c.emit('ip:rejected', () => ({ rule, ip, method: c.req.method, path: c.req.path }));
    throw new HttpError(403, `IP: ${detail}`);
  };
  const layer: Handler = (c, next) => {
    const ip = c.req.ip;
    if (ip === undefined) return refuse(c, 'unknown', ip, 'the client address is unknown');
    if (deny?.(ip)) return refuse(c, 'deny', ip, `${ip} is not allowed`);
    if (allow !== undefined && !allow(ip)) return refuse(c, 'allow', ip, `${ip} is not allowed`);
    return next();
  };
  return named('ipRestriction', layer);
}

function matcher(list: readonly string[]): (address: string) => boolean {
  if (!Array.isArray(list)) throw new TypeError('ipRestriction(): allow and deny are lists of addresses and CIDR ranges');
  try {
    return addressMatcher(list);
  } catch (error) {
    throw new TypeError(String((error as Error).message).replace('trustProxy', 'ipRestriction()'));
  }
}
