// The tests' Redis client lives with the bench, which uses it too (one client per process).
export * from '../../bench/shared/resp.ts';
