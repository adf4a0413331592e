/** Options of `serveStatic`, the same on every runtime. */
export interface ServeStaticOptions {
  /** Directory to serve (Node, Deno, Bun, Deno Deploy). On Workers, the `[assets]` directory plays this part. Default `.`. */
  root?: string;
  /** URL prefix removed from the path before it is looked up under `root`: `/static/app.css` → `<root>/app.css`. Default none. */
  prefix?: string;
  /** File served for a directory (`/docs/` → `docs/index.html`); `false` for none. Default `index.html`. */
  index?: string | false;
  /** A Cache-Control value for file responses (and their 304s), e.g. `public, max-age=31536000, immutable`. Default none. */
  cacheControl?: string;
  /** Serve `<file>.br` / `<file>.gz` when they exist and Accept-Encoding allows them. Default false. */
  precompressed?: boolean;
  /** Send a weak ETag (size and mtime) and answer If-None-Match. Default true. */
  etag?: boolean;
  /** Send Last-Modified and answer If-Modified-Since. Default true. */
  lastModified?: boolean;
  /** Serve names starting with a dot (`.well-known`). Default false: they answer 404. */
  dotfiles?: boolean;
  /** Extra or overriding content types by extension (lower case, no dot). */
  mimeTypes?: Record<string, string>;
  /** Workers only: the name of the assets binding. Default `ASSETS`. */
  binding?: string;
}
