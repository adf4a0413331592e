// `rove crons`: the [triggers] block for an app's tasks, and the check that wrangler.toml lists
// exactly those (Workers run only the crons listed there).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { cli } from '../../adapters/cli/cli.ts';
import { compareCrons, triggersBlock, wranglerCrons } from '../../adapters/cli/crons.ts';

const dir = mkdtempSync(join(tmpdir(), 'rove-crons-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

function capture() {
  const out: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out.push(String(chunk));
    return true;
  });
  vi.spyOn(console, 'log').mockImplementation((...a) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a) => void out.push(a.join(' ')));
  return () => out.join('\n');
}

describe('rove crons', () => {
  it("prints the block for examples/tasks, and examples/tasks/wrangler.toml lists exactly the app's schedules", async () => {
    let text = capture();
    expect(await cli(['crons', 'examples/tasks/app.ts'])).toBe(0);
    expect(text()).toBe('[triggers]\ncrons = ["0 3 * * *", "* * * * *"]\n');
    vi.restoreAllMocks();
    text = capture();
    expect(await cli(['crons', 'examples/tasks/app.ts', '--check', 'examples/tasks/wrangler.toml'])).toBe(0);
    expect(text()).toContain("lists the app's 2 schedules");
  });

  it('fails, saying what differs and giving the block, when wrangler.toml and the app disagree', async () => {
    const file = join(dir, 'wrangler.toml');
    writeFileSync(file, 'name = "x"\n\n[triggers]\ncrons = [\n  "0 3 * * *", # nightly\n  "*/5 * * * *",\n]\n\n[vars]\nA = "1"\n');
    const text = capture();
    expect(await cli(['crons', 'examples/tasks/app.ts', '--check', file])).toBe(1);
    expect(text()).toContain('the app has tasks on "* * * * *", which wrangler.toml does not list');
    expect(text()).toContain('wrangler.toml lists "*/5 * * * *", and no task has that schedule');
    expect(text()).toContain('crons = ["0 3 * * *", "* * * * *"]');
  });

  it('refuses a module without an app, and bad arguments', async () => {
    const text = capture();
    expect(await cli(['crons', 'examples/tasks/item-store.ts'])).toBe(1);
    expect(text()).toContain('exports no App and no task list');
    expect(await cli(['crons'])).toBe(2);
    expect(await cli(['crons', 'a.ts', '--nope'])).toBe(2);
  });
});

describe('reading and comparing', () => {
  it("reads [triggers] crons on one line or several, with comments and either quote, and only that section's", () => {
    expect(wranglerCrons('[triggers]\ncrons = ["0 3 * * *"]')).toEqual(['0 3 * * *']);
    expect(wranglerCrons("[triggers] # schedules\ncrons = [\n 'a', # one\n \"b\\\"c\"\n]\n[env.x]\ncrons = ['z']")).toEqual(['a', 'b"c']);
    expect(wranglerCrons('[vars]\ncrons = ["x"]')).toBeUndefined();
    expect(wranglerCrons('[triggers]\n')).toBeUndefined();
  });

  it('asks for the normalised form Workers hand back as controller.cron, and refuses unportable entries', () => {
    expect(compareCrons(['0 9 * * MON'], ['0 9 * * mon'])).toEqual([expect.stringContaining('write it as "0 9 * * MON"')]);
    expect(compareCrons(['0 9 * * MON'], ['0 9 * * MON', '0 0 L * *'])[0]).toContain('not a schedule Rove runs alike');
    expect(compareCrons([], undefined)).toEqual([]);
    expect(compareCrons(['0 3 * * *'], undefined)[0]).toContain('has no [triggers] crons');
    expect(triggersBlock([])).toBe('[triggers]\ncrons = []\n');
  });
});
