/**
 * rove/logger: one line per request, from the app's event bus
 * (`request:complete`). It costs nothing inside the request: the line is
 * written after the response is ready, and only while the logger is attached.
 */
import type { App } from '../../core/app.ts';
import type { RequestMetadata } from '../../core/event-map.ts';

export interface LoggerOptions {
  /** Where lines go. Default `console.log`. */
  write?: (line: string) => void;
  /** Build the line yourself. Default: `GET /path 200 1.2ms 512b`. */
  format?: (m: RequestMetadata) => string;
}

// A path in a log line must stay one line: control characters are escaped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it escapes
const CONTROL = /[\u0000-\u001f\u007f]/g;

/**
 * `METHOD path status time size`, e.g. `GET /notes 200 0.8ms 312b` (size `-` when unknown).
 *
 * @example
 * formatLine({ method: 'GET', path: '/', status: 200, durationMs: 1.234, responseSize: 5 } as RequestMetadata); // 'GET / 200 1.2ms 5b'
 */
export function formatLine(m: RequestMetadata): string {
  const path = m.path.length > 512 ? `${m.path.slice(0, 512)}…` : m.path;
  const size = m.responseSize === undefined ? '-' : `${m.responseSize}b`;
  return `${m.method} ${path.replace(CONTROL, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`)} ${m.status} ${m.durationMs.toFixed(1)}ms ${size}`;
}

/**
 * Log every request of `app`; returns a function that stops logging.
 *
 * @example
 * import { logger } from 'rove/logger';
 * const stop = logger(app, { write: (line) => process.stdout.write(`${line}\n`) });
 */
export function logger(app: App<any>, options: LoggerOptions = {}): () => void {
  const write = options.write ?? ((line: string) => console.log(line));
  const format = options.format ?? formatLine;
  return app.on('request:complete', (event) => {
    write(format(event.metadata));
  });
}
