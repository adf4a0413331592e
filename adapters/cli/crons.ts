// `rove crons <module>`: the [triggers] block wrangler.toml needs for the app's scheduled tasks, and
// with --check, whether a wrangler.toml lists exactly those (Workers run only the crons listed).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { portableSchedule } from '../../src/tasks/schedule.ts';
import { loadModule } from './load-module.ts';

export const CRONS_USAGE = `usage: rove crons <module> [--export name] [--check wrangler.toml]
  Imports <module> and prints the [triggers] block wrangler.toml needs for the scheduled tasks of
  the App (or task list) it exports. With --check, compares that with the file's [triggers] crons
  and exits 1, saying what differs, when they disagree.
  --export <name>    the export to read (default: default, then app, then the only App or task list)
  --check <file>     the wrangler.toml to check`;

interface HasSchedules {
  readonly schedules: string[];
}

/** A task list's schedules; an App's (none when it has no tasks); undefined for anything else. */
function schedulesOf(v: unknown): string[] | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  if (Array.isArray((v as HasSchedules).schedules)) return (v as HasSchedules).schedules;
  if (!Array.isArray((v as { routeList?: unknown }).routeList)) return undefined;
  return (v as { settings: { tasks?: HasSchedules } }).settings.tasks?.schedules ?? [];
}

/** The schedules of the export `name`, or of default, app, or the only App or task list exported. */
export function pickSchedules(module: Record<string, unknown>, name?: string): string[] {
  if (name !== undefined) {
    const found = schedulesOf(module[name]);
    if (found === undefined) throw new Error(`the module has no App or task list named "${name}"`);
    return found;
  }
  for (const n of ['default', 'app']) {
    const found = schedulesOf(module[n]);
    if (found !== undefined) return found;
  }
  const all = Object.entries(module).filter(([, v]) => schedulesOf(v) !== undefined);
  if (all.length === 1) return schedulesOf(all[0]![1])!;
  if (all.length === 0) throw new Error('the module exports no App and no task list');
  throw new Error(`the module exports several: ${all.map(([n]) => n).join(', ')}; choose one with --export`);
}

/** The block to paste into wrangler.toml. */
export function triggersBlock(schedules: readonly string[]): string {
  return `[triggers]\ncrons = [${schedules.map((s) => JSON.stringify(s)).join(', ')}]\n`;
}

/**
 * wrangler.toml's `[triggers] crons`, read without a TOML library: the section, then its `crons`
 * array of quoted strings, on one line or several. Undefined when the file has no such array.
 */
export function wranglerCrons(toml: string): string[] | undefined {
  const section = /^\s*\[triggers\]\s*(?:#.*)?$([\s\S]*?)(?=^\s*\[|(?![\s\S]))/m.exec(toml)?.[1];
  if (section === undefined) return undefined;
  const array = /^\s*crons\s*=\s*\[([\s\S]*?)\]/m.exec(section)?.[1];
  if (array === undefined) return undefined;
  const values = [...array.replace(/#.*$/gm, '').matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) => (m[1] !== undefined ? JSON.parse(`"${m[1]}"`) : m[2]));
  return values as string[];
}

/** What differs between the app's schedules and wrangler.toml's, as sentences; empty when they agree. */
export function compareCrons(app: readonly string[], listed: readonly string[] | undefined): string[] {
  if (listed === undefined)
    return app.length === 0 ? [] : [`wrangler.toml has no [triggers] crons, and the app's tasks need ${app.map((s) => JSON.stringify(s)).join(', ')}`];
  const problems: string[] = [];
  const normal = new Map<string, string>();
  for (const entry of listed) {
    try {
      normal.set(portableSchedule(entry), entry);
    } catch (error) {
      problems.push(`wrangler.toml lists ${JSON.stringify(entry)}, which is not a schedule Rove runs alike everywhere: ${(error as Error).message}`);
    }
  }
  for (const s of app)
    if (!normal.has(s)) problems.push(`the app has tasks on ${JSON.stringify(s)}, which wrangler.toml does not list: Workers would never run them`);
  for (const [s, entry] of normal) {
    if (!app.includes(s)) problems.push(`wrangler.toml lists ${JSON.stringify(entry)}, and no task has that schedule`);
    else if (s !== entry)
      problems.push(`wrangler.toml lists ${JSON.stringify(entry)}: write it as ${JSON.stringify(s)}, the form Workers hand back as controller.cron`);
  }
  return problems;
}

/** Run `rove crons` with `argv` (after the command name); returns the exit code. */
export async function cronsCommand(argv: string[]): Promise<number> {
  let values: { export?: string; check?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { export: { type: 'string' }, check: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    console.error(`crons: ${(error as Error).message}\n${CRONS_USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(CRONS_USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    console.error(CRONS_USAGE);
    return 2;
  }
  let schedules: string[];
  try {
    schedules = pickSchedules(await loadModule(positionals[0]!, process.cwd()), values.export);
  } catch (error) {
    console.error(`crons: ${(error as Error).message}`);
    return 1;
  }
  if (values.check === undefined) {
    process.stdout.write(triggersBlock(schedules));
    return 0;
  }
  let toml: string;
  try {
    toml = readFileSync(values.check, 'utf8');
  } catch (error) {
    console.error(`crons: ${(error as Error).message}`);
    return 1;
  }
  const problems = compareCrons(schedules, wranglerCrons(toml));
  if (problems.length === 0) {
    console.log(`crons: ${values.check} lists the app's ${schedules.length} schedule${schedules.length === 1 ? '' : 's'}`);
    return 0;
  }
  console.error(
    `crons: ${values.check} and the app disagree:\n${problems.map((p) => `  - ${p}`).join('\n')}\nThe block the app needs:\n${triggersBlock(schedules)}`,
  );
  return 1;
}
