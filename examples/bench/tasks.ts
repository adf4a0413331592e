// The thread pool's task module for /test-worker: the same loop as /test-cpu.
import { cpuWork } from '../../bench/shared/fixtures.ts';

export function cpu(): number {
  return cpuWork();
}

export default cpu;
