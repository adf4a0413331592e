// The text/event-stream wire format (WHATWG HTML, "Server-sent events"): one
// event is a block of `field: value` lines ended by a blank line.

/** One event. Every field is optional; a message with only `retry` or `id` is valid. */
export interface SSEMessage {
  /** The payload. A string is sent as is (each line its own `data:` line); anything else as JSON. */
  data?: unknown;
  /** The event type the client listens for (`addEventListener(event, …)`); default `message`. */
  event?: string;
  /** Stored by the client and sent back as `Last-Event-ID` when it reconnects. */
  id?: string | number;
  /** How long the client waits before reconnecting, in ms. */
  retry?: number;
  /** A comment line (`: …`), ignored by clients. */
  comment?: string;
}

// Any line break the format knows: CRLF, CR or LF.
const LINE_BREAK = /\r\n|\r|\n/;
const BREAK_CHAR = /[\r\n]/;

/**
 * One event as it goes on the wire, ending with the blank line.
 * Throws a TypeError for an `event` or `id` holding CR or LF (they would start a
 * new field: header injection for the stream), an `id` holding NUL (clients drop
 * it), or a `retry` that is not a non-negative integer.
 *
 * @example
 * formatEvent({ event: 'tick', id: 1, data: { n: 1 } }); // 'event: tick\nid: 1\ndata: {"n":1}\n\n'
 */
export function formatEvent(message: SSEMessage): string {
  let out = '';
  if (message.comment !== undefined) out += comment(message.comment);
  if (message.event !== undefined) {
    const event = String(message.event);
    if (BREAK_CHAR.test(event)) throw new TypeError('SSE: an event name may not hold CR or LF');
    out += `event: ${event}\n`;
  }
  if (message.id !== undefined) {
    const id = String(message.id);
    if (BREAK_CHAR.test(id) || id.includes('\0')) throw new TypeError('SSE: an id may not hold CR, LF or NUL');
    out += `id: ${id}\n`;
  }
  if (message.retry !== undefined) {
    const retry = message.retry;
    if (!Number.isSafeInteger(retry) || retry < 0) throw new TypeError(`SSE: retry must be a non-negative integer (ms), not ${retry}`);
    out += `retry: ${retry}\n`;
  }
  const data = message.data;
  if (data !== undefined) {
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    // JSON.stringify(fn) and friends give undefined: send nothing rather than "undefined".
    if (text !== undefined) out += dataLines(text);
  }
  // A message with no field at all would be a lone blank line: send nothing.
  return out === '' ? '' : `${out}\n`;
}

/** `data:` lines for a text: a line break in it starts a new `data:` line, which the client joins with LF. */
function dataLines(text: string): string {
  if (!BREAK_CHAR.test(text)) return `data: ${text}\n`;
  let out = '';
  for (const line of text.split(LINE_BREAK)) out += `data: ${line}\n`;
  return out;
}

/** A comment block: every line starts with a colon, so a line break cannot turn text into a field. */
export function comment(text: string): string {
  let out = '';
  for (const line of text.split(LINE_BREAK)) out += line === '' ? ':\n' : `: ${line}\n`;
  return out;
}
