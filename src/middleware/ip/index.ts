// rove/ip: allow or deny requests by client address (c.req.ip).
export { type IpRestrictionOptions, type IpRule, ipRestriction } from './ip.ts';
