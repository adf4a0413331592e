/**
 * rove/static, the runtime-free part: path rules, conditional requests,
 * ranges and content types over a `FileSource`. The `serveStatic` that apps
 * import comes from the adapter the package's export conditions pick
 * (adapters/node/static.ts, deno/static.ts, bun/static.ts, cloudflare/static.ts).
 */
export { etagMatches, fileEtag, httpDate, notModified, parseHttpDate, rangeApplies } from './conditional.ts';
export { addVary, pickEncoding } from './encoding.ts';
export { CACHE_BYTES_MAX, CACHE_ENTRIES_MAX, CACHE_FILE_MAX, FileCache, type FileVersion, inMemory, SETTLED_MS } from './file-cache.ts';
export { DEFAULT_TYPE, isCompressible, MIME_TYPES, mimeType } from './mime.ts';
export type { ServeStaticOptions } from './options.ts';
export { MAX_PATH_LENGTH, MAX_SEGMENTS, normalizePrefix, type StaticPath, staticPath } from './path.ts';
export { MAX_RANGE_HEADER, parseRange, type RangeResult } from './range.ts';
export { serveFrom } from './serve.ts';
export type { FileSource, FileStat, OpenResult, StaticFile } from './source.ts';
