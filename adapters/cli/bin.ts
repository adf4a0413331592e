#!/usr/bin/env node
// The `rove` executable: `npx rove build:views views src/views.gen.ts` (see cli.ts).
import { cli } from './cli.ts';

process.exitCode = await cli(process.argv.slice(2));
