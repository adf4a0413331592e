// The cold-start section of a bench result (npm run bench:cold, and npm run bench).
// One entry per runtime × app × mode; each holds every start's figures and their median.

/** The apps a cold start is measured for. */
export type ColdStartApp = 'two-route-rove' | 'two-route-hono' | 'two-route-bare' | 'hello' | 'notes';

export interface ColdStartSample {
  /** From spawn to the first answered request, in ms. */
  firstAnswerMs: number;
  /** CPU the server process spent before that answer (user + system, all threads), in ms; null where unreadable. */
  cpuMs: number | null;
  /** workerd only: the module's startup time as workerd or wrangler reports it, in ms; null elsewhere. */
  startupMs: number | null;
}

export interface ColdStartEntry {
  runtime: 'node' | 'deno' | 'bun' | 'deno-deploy' | 'workerd';
  app: ColdStartApp;
  /** 'bundled': one esbuild bundle per runtime; 'source': the TypeScript entry as users run it (workerd: always bundled). */
  mode: 'bundled' | 'source';
  /** Entry module, relative to the repository root. */
  entry: string;
  /** The request timed (method and path). */
  request: string;
  /** Bundle size in bytes (bundled mode), minified and gzipped where measured. */
  bundleBytes: number | null;
  bundleGzipBytes: number | null;
  samples: ColdStartSample[];
  /** Medians and spread (min–max) over the samples. */
  median: { firstAnswerMs: number | null; cpuMs: number | null; startupMs: number | null };
  spread: { firstAnswerMs: [number, number] | null; cpuMs: [number, number] | null; startupMs: [number, number] | null };
  /** Why the entry has no figures, when it failed. */
  error: string | null;
  /** workerd: how startupMs was obtained, or why it is null. */
  startupNote?: string;
}

export interface ColdStartResult {
  date: string;
  /** The command that produced the section. */
  command: string;
  /** Starts per entry. */
  starts: number;
  entries: ColdStartEntry[];
}
