// rove/etag: weak ETags for dynamic responses, and 304 Not Modified.
export { type EtagOptions, etag, RETAINED_ON_304, weakTag } from './etag.ts';
