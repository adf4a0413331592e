// rove/tasks: scheduled tasks, run by every adapter.

export { type TaskList, type TaskListOptions, type TimerInit, tasks } from './list.ts';
export { type KvLike, kvLock, type RedisLike, redisLock, type TaskLock } from './lock.ts';
export type { RunInit, Task, TaskAround, TaskContext, TaskErrorHandler, TaskHandler, TaskOutcome } from './run.ts';
export { portableSchedule, ScheduleError } from './schedule.ts';
export { taskTrigger } from './trigger.ts';
