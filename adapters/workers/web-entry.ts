// The first module of every Deno and Bun worker (a module Web Worker): runs the pool's tasks.
import { serveTasks, type ReplyMessage, type RunMessage, type TaskModule } from '../../src/workers/protocol.ts';

const scope = globalThis as unknown as {
  postMessage(message: ReplyMessage): void;
  onmessage: ((event: MessageEvent) => void) | null;
};

let handle: ((message: RunMessage) => void) | undefined;
// Set synchronously at the top: messages that arrive before the handler exists would be lost.
scope.onmessage = (event) => {
  const data = event.data as RunMessage | { t: 'init'; module: string };
  if (data.t === 'init') {
    handle = serveTasks(() => import(data.module) as Promise<TaskModule>, (message) => scope.postMessage(message));
  } else {
    handle?.(data);
  }
};
