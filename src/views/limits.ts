export interface ViewLimits {
  /** Largest template source, in characters. Breach: compile error. */
  templateSize: number;
  /** Iterations of one loop. Breach: render error. */
  loopIterations: number;
  /** Iterations of all loops in one render. Breach: render error. */
  totalIterations: number;
  /** Output size of one render, in characters. Breach: render error. */
  outputSize: number;
  /** Include and layout depth; also catches a view including itself. Breach: render error. */
  includeDepth: number;
  /** Nesting of blocks in a view and of sub-expressions in a tag, so neither parsing nor rendering can exhaust the stack. Breach: compile error. */
  nesting: number;
}

export const DEFAULT_LIMITS: Readonly<ViewLimits> = Object.freeze({
  templateSize: 1024 * 1024,
  loopIterations: 100_000,
  totalIterations: 1_000_000,
  outputSize: 5_000_000,
  includeDepth: 64,
  nesting: 100,
});

export function resolveLimits(partial: Partial<ViewLimits> | undefined): ViewLimits {
  const limits = { ...DEFAULT_LIMITS };
  if (partial !== undefined) {
    for (const key of Object.keys(DEFAULT_LIMITS) as (keyof ViewLimits)[]) {
      const value = partial[key];
      if (value === undefined) continue;
      if (typeof value !== 'number' || !(value >= 0)) {
        throw new TypeError(`views: limits.${key} must be a non-negative number`);
      }
      limits[key] = value;
    }
  }
  return limits;
}
