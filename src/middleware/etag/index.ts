// rove/etag: weak ETags for dynamic responses, and 304 Not Modified.
export { type EtagOptions, etag, weakTag } from './etag.ts';
