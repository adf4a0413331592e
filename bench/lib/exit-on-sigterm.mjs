// Preloaded into node targets under --cpu-prof: V8 writes the profile only
// on a clean exit, and the runner stops targets with SIGTERM.
process.on('SIGTERM', () => process.exit(0));
