// The first module of every Deno and Bun worker (a module Web Worker): runs the pool's tasks.
import { type ReplyMessage, type RunMessage, serveTasks, type TaskModule } from '../../src/threads/protocol.ts';

const scope = globalThis as unknown as {
  postMessage(message: ReplyMessage): void;
  onmessage: ((event: MessageEvent) => void) | null;
};

let handle: ((message: RunMessage) => void) | undefined;
// Set synchronously at the top: messages that arrive before the handler exists would be lost.
scope.onmessage = (event) => {
  const data = event.data as RunMessage | { t: 'init'; module: string; lowPriority: number };
  if (data.t === 'init') {
    handle = serveTasks(
      () => import(data.module) as Promise<TaskModule>,
      (message) => scope.postMessage(message),
    );
    // Deno and Bun both offer node:os; on Linux this lowers this thread only.
    if (data.lowPriority) lowerPriority(data.lowPriority);
  } else {
    handle?.(data);
  }
};

function lowerPriority(nice: number): void {
  import('node:os').then(
    (os) => {
      try {
        os.setPriority(nice);
      } catch {
        // not allowed here: the thread keeps the default priority
      }
    },
    () => {},
  );
}
