// Preloaded into deno targets under --cpu-prof: Deno writes the profile only
// on a clean exit, and the runner stops targets with SIGTERM.
declare const Deno: { addSignalListener(signal: 'SIGTERM', handler: () => void): void; exit(code?: number): never };
Deno.addSignalListener('SIGTERM', () => Deno.exit(0));
