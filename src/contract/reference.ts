import type { Handler } from '../core/compose.ts';

/** What `referenceHandler()` takes. */
export interface ReferenceOptions {
  /** Where the page fetches the OpenAPI document: e.g. '/openapi.json' (served by `openapiHandler`). */
  url: string;
  /**
   * Where the page loads Scalar's standalone script (`@scalar/api-reference`'s
   * dist/browser/standalone.js) from: a path the app serves with `scriptHandler()`, or a CDN URL.
   */
  script: string;
  /** The page's title. Default: 'API reference'. */
  title?: string;
  /** More Scalar configuration (theme, layout, `withDefaultFonts`…), given to `Scalar.createApiReference` as JSON. */
  configuration?: Record<string, unknown>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
// JSON inside a <script>: no "</script>" or "<!--" can close or comment it out.
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** The HTML of the reference page (what `referenceHandler` answers). */
export function referencePage(options: ReferenceOptions): string {
  const configuration = { ...options.configuration, url: options.url };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title ?? 'API reference')}</title>
</head>
<body>
<div id="app"></div>
<script src="${escapeHtml(options.script)}"></script>
<script>Scalar.createApiReference('#app', ${scriptJson(configuration)});</script>
</body>
</html>
`;
}

/**
 * A handler that answers an interactive API reference page (Scalar's) of the OpenAPI document at
 * `url`. The page loads Scalar's standalone script from `script`: serve it from the app with
 * `scriptHandler()` (no network needed, works on Workers) or point at a CDN. No file system.
 *
 * @example
 * app.get('/openapi.json', openapiHandler(app, { info: { title: 'Users', version: '1.0.0' } }));
 * app.get('/reference', referenceHandler({ url: '/openapi.json', script: '/reference/standalone.js' }));
 * app.get('/reference/standalone.js', scriptHandler(() => readFile(standalonePath, 'utf8')));
 */
export function referenceHandler(options: ReferenceOptions): Handler {
  const body = referencePage(options);
  return (c) => c.body(body, 200, { 'content-type': 'text/html; charset=utf-8' });
}

/** A script's text, or a function that gives it (called at the first request, its answer kept). */
export type ScriptSource = string | (() => string | Promise<string>);

/**
 * A handler that answers a JavaScript file's text, e.g. Scalar's standalone script for
 * `referenceHandler`. The text comes from the caller (read from node_modules on Node, Deno and
 * Bun; imported as a text module on Workers), so Rove itself reads no file.
 */
export function scriptHandler(source: ScriptSource, options: { cacheControl?: string } = {}): Handler {
  let text: Promise<string> | undefined;
  const headers = { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': options.cacheControl ?? 'public, max-age=3600' };
  return async (c) => {
    text ??= Promise.resolve(typeof source === 'string' ? source : source());
    try {
      return c.body(await text, 200, headers);
    } catch (error) {
      text = undefined; // a failed read is tried again at the next request
      throw error;
    }
  };
}
