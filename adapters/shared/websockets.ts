// The open WebSockets of one server, for the shutdown of adapters/shared/server.ts:
// at shutdown each is asked to close with 1001; when the grace is over, dropped.
import type { SocketEvents } from '../../src/websocket/protocol.ts';

export class OpenSockets {
  #open = new Map<SocketEvents, () => void>();
  #idle: (() => void)[] = [];

  get size(): number {
    return this.#open.size;
  }

  add(sink: SocketEvents, terminate: () => void): void {
    this.#open.set(sink, terminate);
  }

  delete(sink: SocketEvents): void {
    if (!this.#open.delete(sink) || this.#open.size > 0) return;
    const waiting = this.#idle;
    this.#idle = [];
    for (const w of waiting) w();
  }

  /** Ask every socket to close with 1001; resolves once all are closed. */
  shutdown(): Promise<void> {
    for (const sink of [...this.#open.keys()]) sink.shutdown();
    if (this.#open.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** The grace period is over: drop every socket now. */
  terminate(): void {
    for (const drop of [...this.#open.values()]) drop();
  }
}
