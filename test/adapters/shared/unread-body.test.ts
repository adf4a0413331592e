// An error answered before the request body was read waits until the rest is read and dropped,
// within bounds of bytes and time, so that the answer reaches the client without letting a client
// that sends gigabytes, or sends slowly, hold the server.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterUnreadBody, DISCARD_BYTES, DISCARD_MS, discardBody } from '../../../adapters/shared/unread-body.ts';

/** A body of `total` bytes (Infinity: endless) in 64 KiB chunks, counting what was pulled and whether it was cancelled. */
function source(total: number) {
  const chunk = new Uint8Array(64 * 1024);
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled >= total) return controller.close();
      seen.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { body, seen };
}

function post(body: ReadableStream<Uint8Array>, length?: number): Request {
  return new Request('http://x/', {
    method: 'POST',
    body,
    headers: length === undefined ? {} : { 'content-length': String(length) },
    duplex: 'half',
  } as RequestInit);
}

describe('an unread request body', () => {
  afterEach(() => vi.useRealTimers());

  it('is read to its end before an error answer goes', async () => {
    const { body, seen } = source(3 * 1024 * 1024);
    const res = new Response('too large', { status: 413 });
    expect(await afterUnreadBody(post(body), res)).toBe(res);
    expect(seen.pulled).toBe(3 * 1024 * 1024);
  });

  it('is left alone for a success, and when it is being read', async () => {
    const { body, seen } = source(1024 * 1024);
    const ok = new Response('ok');
    expect(afterUnreadBody(post(body), ok)).toBe(ok);
    const reading = post(source(1024).body);
    const reader = reading.body!.getReader();
    const refused = new Response('no', { status: 400 });
    expect(afterUnreadBody(reading, refused)).toBe(refused);
    reader.releaseLock();
    expect(seen.pulled).toBeLessThanOrEqual(64 * 1024); // a stream may pull once to fill its queue
  });

  it('that never ends is dropped only up to DISCARD_BYTES, then cancelled', async () => {
    const { body, seen } = source(Number.POSITIVE_INFINITY);
    expect(await discardBody(body, null)).toBe(false);
    expect(seen.pulled).toBeGreaterThanOrEqual(DISCARD_BYTES);
    // The chunk that crossed the bound, and one the stream queued ahead.
    expect(seen.pulled).toBeLessThanOrEqual(DISCARD_BYTES + 2 * 64 * 1024);
    expect(seen.cancelled).toBe(true);
  });

  it('with a declared length past DISCARD_BYTES is cancelled unread', async () => {
    const { body, seen } = source(Number.POSITIVE_INFINITY);
    expect(await discardBody(body, String(DISCARD_BYTES + 1))).toBe(false);
    expect(seen.pulled).toBeLessThanOrEqual(64 * 1024);
    expect(seen.cancelled).toBe(true);
  });

  it('that stalls is given up after DISCARD_MS, then cancelled', async () => {
    vi.useFakeTimers();
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull: () => new Promise(() => {}),
      cancel() {
        cancelled = true;
      },
    });
    let settled = false;
    const done = discardBody(body, null).then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(DISCARD_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(cancelled).toBe(true);
  });

  it('read to its end reports it, so the connection can be kept', async () => {
    const { body, seen } = source(256 * 1024);
    expect(await discardBody(body, '262144')).toBe(true);
    expect(seen.pulled).toBe(256 * 1024);
  });

  it('that errors mid-way (the client went away) ends the drop quietly', async () => {
    let n = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (n++ === 2) controller.error(new Error('reset'));
        else controller.enqueue(new Uint8Array(1024));
      },
    });
    await expect(discardBody(body, null)).resolves.toBe(false);
  });
});
