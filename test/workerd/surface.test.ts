// Runs inside workerd (vitest.workers.config.ts): every public member of App, Context and
// RoveRequest works with only the core entry imported. The member list and the other
// runtimes: test/surface/members.test.ts.
import { describe, expect, it } from 'vitest';
import { PROBES, probe } from '../surface/probe.ts';

describe('the public surface inside workerd', () => {
  it('every member works with only the core entry imported', async () => {
    const results = await probe();
    expect(Object.keys(results)).toEqual(Object.keys(PROBES));
    expect(results).toEqual(Object.fromEntries(Object.keys(PROBES).map((name) => [name, 'ok'])));
  });
});
