import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comment, formatEvent } from '../../src/sse/frame.ts';

/** What an EventSource makes of a stream (the WHATWG parsing rules, for the fields used here). */
function parse(stream: string): { event: string; data: string; id: string | undefined }[] {
  const out: { event: string; data: string; id: string | undefined }[] = [];
  let data: string[] = [];
  let event = '';
  let id: string | undefined;
  let hasData = false;
  for (const line of stream.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (hasData) out.push({ event: event || 'message', data: data.join('\n'), id });
      data = [];
      event = '';
      hasData = false;
      continue;
    }
    if (line.startsWith(':')) continue;
    const i = line.indexOf(':');
    const field = i === -1 ? line : line.slice(0, i);
    let value = i === -1 ? '' : line.slice(i + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      data.push(value);
      hasData = true;
    } else if (field === 'event') event = value;
    else if (field === 'id') id = value;
  }
  return out;
}

describe('SSE framing', () => {
  it('writes the fields in order and ends with a blank line', () => {
    expect(formatEvent({ event: 'tick', id: 1, data: { n: 1 } })).toBe('event: tick\nid: 1\ndata: {"n":1}\n\n');
    expect(formatEvent({ data: 'hi', retry: 5000 })).toBe('retry: 5000\ndata: hi\n\n');
    expect(formatEvent({ comment: 'note', data: 'x' })).toBe(': note\ndata: x\n\n');
  });

  it('sends non-string data as JSON, and nothing for undefined', () => {
    expect(formatEvent({ data: [1, 'a'] })).toBe('data: [1,"a"]\n\n');
    expect(formatEvent({ data: 0 })).toBe('data: 0\n\n');
    expect(formatEvent({ data: null })).toBe('data: null\n\n');
    expect(formatEvent({ data: 'multi\nline' })).toBe('data: multi\ndata: line\n\n');
    expect(formatEvent({})).toBe('');
  });

  it('refuses CR or LF in event and id, NUL in id, and a bad retry', () => {
    expect(() => formatEvent({ event: 'a\nb', data: 'x' })).toThrow(TypeError);
    expect(() => formatEvent({ event: 'a\rdata: injected', data: 'x' })).toThrow(TypeError);
    expect(() => formatEvent({ id: '1\r\n', data: 'x' })).toThrow(TypeError);
    expect(() => formatEvent({ id: 'a\0b', data: 'x' })).toThrow(TypeError);
    expect(() => formatEvent({ retry: -1 })).toThrow(TypeError);
    expect(() => formatEvent({ retry: 1.5 })).toThrow(TypeError);
  });

  it('keeps comment text on comment lines', () => {
    expect(comment('a\nb')).toBe(': a\n: b\n');
    expect(parse(`${comment('x\ndata: injected')}\n`)).toEqual([]);
  });

  it('property: any string data reaches the client as sent (CR, LF and CRLF read as LF), as one event', () => {
    const text = fc.string({ unit: fc.constantFrom('a', ' ', ':', '\n', '\r', 'é', '✓', 'data: ', '\r\n', 'id: 9') });
    fc.assert(
      fc.property(text, fc.string({ unit: fc.constantFrom('a', 'b', '-', ' ') }), (data, event) => {
        const wire = formatEvent({ event: event || undefined, id: 7, data });
        const events = parse(wire);
        expect(events).toHaveLength(1);
        expect(events[0].data).toBe(data.replace(/\r\n|\r/g, '\n'));
        expect(events[0].id).toBe('7');
        expect(events[0].event).toBe(event || 'message');
      }),
      { numRuns: 500 },
    );
  });

  it('property: JSON data always fits on one data line and parses back', () => {
    fc.assert(
      fc.property(
        fc.jsonValue().filter((v) => typeof v !== 'string'),
        (value) => {
          const wire = formatEvent({ data: value });
          expect(wire.split('\n').filter((l) => l.startsWith('data:'))).toHaveLength(1);
          expect(JSON.parse(parse(wire)[0].data)).toEqual(JSON.parse(JSON.stringify(value)));
        },
      ),
    );
  });
});
