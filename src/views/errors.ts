export type ViewErrorKind = 'syntax' | 'render' | 'limit' | 'not-found';

export interface ViewErrorInit {
  kind: ViewErrorKind;
  view: string;
  reason: string;
  line?: number;
  column?: number;
  /** Template source, used only to print the offending line with a caret. */
  source?: string;
  cause?: unknown;
}

/**
 * Every failure of the views engine. The message names the view and the
 * position, never a data value, so it is safe to log.
 */
export class ViewError extends Error {
  readonly kind: ViewErrorKind;
  readonly view: string;
  readonly line?: number;
  readonly column?: number;
  /** The message without the view name, position and code frame. */
  readonly reason: string;

  constructor(init: ViewErrorInit) {
    super(formatMessage(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ViewError';
    this.kind = init.kind;
    this.view = init.view;
    this.reason = init.reason;
    if (init.line !== undefined) this.line = init.line;
    if (init.column !== undefined) this.column = init.column;
  }
}

const KIND_LABEL: Record<ViewErrorKind, string> = {
  syntax: 'syntax error',
  render: 'render error',
  limit: 'limit exceeded',
  'not-found': 'view not found',
};

function formatMessage(init: ViewErrorInit): string {
  let where = init.view;
  if (init.line !== undefined) where += `:${init.line}:${init.column ?? 1}`;
  let msg = `${KIND_LABEL[init.kind]} in ${where}: ${init.reason}`;
  if (init.source !== undefined && init.line !== undefined) {
    msg += `\n${codeFrame(init.source, init.line, init.column ?? 1)}`;
  }
  return msg;
}

const MAX_FRAME_WIDTH = 100;

/** The line at `line` (1-based) with a caret under `column` (1-based, UTF-16 units). */
export function codeFrame(source: string, line: number, column: number): string {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const nl = source.indexOf('\n', start);
    if (nl < 0) break;
    start = nl + 1;
  }
  let end = source.indexOf('\n', start);
  if (end < 0) end = source.length;
  let text = source.slice(start, end).replace(/\r$/, '');
  let col = Math.max(1, Math.min(column, text.length + 1));
  // Keep very long (e.g. minified) lines readable: show a window around the caret.
  if (text.length > MAX_FRAME_WIDTH) {
    const from = Math.max(0, Math.min(col - 1 - MAX_FRAME_WIDTH / 2, text.length - MAX_FRAME_WIDTH));
    const prefix = from > 0 ? '…' : '';
    const suffix = from + MAX_FRAME_WIDTH < text.length ? '…' : '';
    text = prefix + text.slice(from, from + MAX_FRAME_WIDTH) + suffix;
    col = col - from + prefix.length;
  }
  const gutter = String(line);
  // Tabs stay tabs under the caret so it lines up in any terminal.
  const pad = text.slice(0, col - 1).replace(/[^\t]/g, ' ');
  return `${gutter} | ${text}\n${' '.repeat(gutter.length)} | ${pad}^`;
}
