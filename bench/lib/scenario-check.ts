// Before a target is measured: a scenario's setup request, then every check of its answers.
import { send } from './http.ts';
import { checkResponse, type Scenario } from './scenarios.ts';

/** The scenario with its requests completed by its setup request's answer (itself when it has no setup). */
export async function prepareScenario(port: number, s: Scenario): Promise<Scenario> {
  const setup = s.setup;
  if (!setup) return s;
  const res = await send(port, setup.request);
  return {
    ...s,
    request: setup.apply(res, s.request, port),
    checks: s.checks.map((check) => ({ ...check, request: setup.apply(res, check.request, port) })),
  };
}

/** Runs every check of a scenario; the first failure, or null. */
export async function checkScenario(port: number, s: Scenario): Promise<string | null> {
  for (const check of s.checks) {
    try {
      const err = checkResponse(check.expect, await send(port, check.request));
      if (err) return `${check.name}: ${err}`;
    } catch (e) {
      return `${check.name}: ${(e as Error).message}`;
    }
  }
  return null;
}
