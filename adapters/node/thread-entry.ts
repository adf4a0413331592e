// The first module of every Node worker thread: runs the pool's tasks.
import { parentPort, workerData } from 'node:worker_threads';
import { type RunMessage, serveTasks, type TaskModule } from '../../src/threads/protocol.ts';

const port = parentPort!;
const handle = serveTasks(
  () => import((workerData as { module: string }).module) as Promise<TaskModule>,
  (message) => port.postMessage(message),
);
port.on('message', (message: RunMessage) => handle(message));
