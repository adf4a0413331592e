// `deno run -A test/surface/run-probe.ts` or `bun test/surface/run-probe.ts`: prints the probe's results as one JSON line.
import { probe } from './probe.ts';

console.log(JSON.stringify(await probe()));
