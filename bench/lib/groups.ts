// Scenario groups: the rows of the report's summary. Each scenario belongs to exactly one
// group (test/bench/report.test.ts checks it), so a new scenario must be placed here.

export interface ScenarioGroup {
  id: string;
  label: string;
  /** What the group's scenarios have in common, for the report. */
  about: string;
  scenarios: readonly string[];
}

export const SCENARIO_GROUPS: readonly ScenarioGroup[] = [
  {
    id: 'basics',
    label: 'Basics',
    about: 'routing and small responses: JSON, text, a route param with a query string, a JSON body echoed',
    scenarios: ['test', 'text', 'json-nested', 'query', 'echo'],
  },
  {
    id: 'views',
    label: 'Views',
    about: 'HTML templates: a variable, a partial, a loop, expressions, and the fortunes page (sort, escape, render)',
    scenarios: ['test-view', 'test-view-include', 'test-view-each-meta', 'test-view-filter', 'test-view-expr', 'fortunes'],
  },
  {
    id: 'validation',
    label: 'Validation & middleware',
    about: 'a 10-field body validated by a schema, and five middleware layers before the handler',
    scenarios: ['params', 'chain'],
  },
  {
    id: 'app-layer',
    label: 'App layer',
    about: 'static files and a 304, a session read, a CORS preflight, security headers, a CSRF-checked form, a rate limit',
    scenarios: ['static', 'static-304', 'session-read', 'cors-preflight', 'secure-headers', 'csrf-post', 'rate-limited'],
  },
  {
    id: 'database',
    label: 'Database',
    about: 'PostgreSQL through one postgres.js pool per process: the seed queries and the four TechEmpower ones',
    scenarios: ['sql1', 'sql2', 'db', 'queries', 'updates', 'fortunes-db'],
  },
  {
    id: 'real-work',
    label: 'Real work',
    about:
      'a 50,000-step CPU loop per request; and, Rove only, the same loop in the worker pool, the latency of a light route beside it, and the cost of an event listener',
    scenarios: ['test-cpu', 'test-worker', 'pool-p99-cpu', 'pool-p99-worker', 'listener'],
  },
  {
    id: 'shared-stores',
    label: 'Shared stores',
    about: 'a session read from Redis through one client per process',
    scenarios: ['session-read-redis'],
  },
];

export function groupOf(scenario: string): ScenarioGroup | undefined {
  return SCENARIO_GROUPS.find((g) => g.scenarios.includes(scenario));
}
