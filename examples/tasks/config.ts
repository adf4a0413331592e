// The example's settings from the environment, the same names on every runtime.
import type { TasksAppOptions } from './app.ts';

/** TRIGGER=1 serves /__scheduled; AUDIT_DELAY_MS and HEARTBEAT_MS slow the tasks' work down. */
export function optionsFrom(env: Record<string, string | undefined>): TasksAppOptions {
  return {
    trigger: env.TRIGGER === '1',
    auditDelayMs: Number(env.AUDIT_DELAY_MS ?? 0) || 0,
    heartbeatMs: Number(env.HEARTBEAT_MS ?? 0) || 0,
  };
}
