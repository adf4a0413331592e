// The file-source interface between the static middleware (Web Standards) and
// the runtime's file access (adapters/static-*.ts).

/** One opened regular file. Exactly one of body() or close() is called. */
export interface StaticFile {
  readonly size: number;
  /** Modification time in epoch ms; NaN when the source cannot tell. */
  readonly mtimeMs: number;
  /**
   * The bytes `start`..`end` (inclusive) as a response body, streamed or, for a
   * small file, read in one go. The source closes the file when the body is done or cancelled.
   */
  body(start: number, end: number): BodyInit | Promise<BodyInit>;
  /** The body knows its own length (a Blob): no Content-Length is set for it (Bun sends a Blob faster without one). */
  readonly sized?: boolean;
  close(): void;
}

/** Size and modification time of a regular file, looked up without opening it. */
export interface FileStat {
  readonly size: number;
  /** Modification time in epoch ms; NaN when the source cannot tell. */
  readonly mtimeMs: number;
}

/** What `open` found at a relative path. */
export type OpenResult = StaticFile | 'directory' | undefined;

/**
 * Opens files under one root. `rel` was checked by `staticPath` (no dot
 * segments, no separators inside a name); the source must still resolve
 * symlinks and answer undefined for anything whose real path is outside the
 * root, and for anything that is not a regular file or directory.
 */
export interface FileSource {
  /** May answer at once (no promise) when the lookup is synchronous or remembered. */
  open(rel: string): OpenResult | Promise<OpenResult>;
  /**
   * Optional: what a conditional request needs (size, mtime) of a regular file inside the
   * root, under the same containment rules as `open`, without opening it, so a 304 costs
   * one lookup. Undefined for anything else: the middleware then opens the path as usual.
   */
  stat?(rel: string): FileStat | undefined | Promise<FileStat | undefined>;
}
