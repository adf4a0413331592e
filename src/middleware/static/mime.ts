// A small content-type table: the types a web app ships. Anything else is
// application/octet-stream, which browsers download rather than sniff (with nosniff).

const UTF8 = '; charset=utf-8';

/** Extension (lower case, no dot) to content type. Text types carry a charset. */
export const MIME_TYPES: Readonly<Record<string, string>> = {
  html: `text/html${UTF8}`,
  htm: `text/html${UTF8}`,
  css: `text/css${UTF8}`,
  js: `text/javascript${UTF8}`,
  mjs: `text/javascript${UTF8}`,
  cjs: `text/javascript${UTF8}`,
  json: `application/json${UTF8}`,
  map: `application/json${UTF8}`,
  webmanifest: `application/manifest+json${UTF8}`,
  txt: `text/plain${UTF8}`,
  md: `text/markdown${UTF8}`,
  csv: `text/csv${UTF8}`,
  xml: `application/xml${UTF8}`,
  svg: `image/svg+xml${UTF8}`,
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  wasm: 'application/wasm',
  pdf: 'application/pdf',
  zip: 'application/zip',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
};

export const DEFAULT_TYPE = 'application/octet-stream';

/**
 * The content type for a file name, from its extension; `extra` (lower-case
 * extensions) wins over the built-in table.
 *
 * @example
 * mimeType('app.css'); // 'text/css; charset=utf-8'
 * mimeType('data.bin'); // 'application/octet-stream'
 */
export function mimeType(name: string, extra?: Readonly<Record<string, string>>): string {
  const slash = name.lastIndexOf('/');
  const dot = name.lastIndexOf('.');
  if (dot <= slash + 1) return DEFAULT_TYPE; // no extension, or a dotfile's name
  const ext = name.slice(dot + 1).toLowerCase();
  if (extra !== undefined && Object.hasOwn(extra, ext)) return extra[ext];
  return Object.hasOwn(MIME_TYPES, ext) ? MIME_TYPES[ext] : DEFAULT_TYPE;
}

/** Whether a content type is worth compressing: text, JSON, XML, JavaScript, SVG, wasm. */
export function isCompressible(type: string): boolean {
  const t = type.toLowerCase();
  return (
    t.startsWith('text/') ||
    t.startsWith('application/json') ||
    t.startsWith('application/javascript') ||
    t.startsWith('application/xml') ||
    t.startsWith('application/manifest+json') ||
    t.startsWith('application/wasm') ||
    t.startsWith('image/svg+xml') ||
    t.startsWith('application/problem+json') ||
    /^application\/[\w.+-]+\+(?:json|xml)\b/.test(t)
  );
}
