// The orchestration: per runtime, start every framework's target (one at a
// time, so cold starts don't overlap), check every scenario once, then for
// each scenario measure the frameworks back to back, so the ratios compare
// figures taken a few seconds apart on this shared machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, freePort, processTree, startChild, stopChild } from '../../dev/proc.ts';
import type { Config, FrameworkId, RuntimeId } from './config.ts';
import { tidyDatabase } from './db-run.ts';
import { firstAnswer } from './http.ts';
import { Aborted } from './interrupt.ts';
import { knownLimit } from './known-limits.ts';
import { setListener } from './listener-cost.ts';
import { type LoadResult, runLoad } from './load.ts';
import { type PerfWindow, startPerf } from './perf-record.ts';
import { pinnedCommand } from './pin.ts';
import { poolRound } from './pool-p99.ts';
import { backgroundMeter, cpuDeltaUs, peakRssMB, resetPeakRss, treeCpuUs } from './proc-stats.ts';
import { emptyRow, type Row } from './result.ts';
import { rowOfRounds } from './rounds.ts';
import { clock, describeRow } from './row-text.ts';
import { loadFor, SCENARIO_PIPELINING_REASON } from './runtime-load.ts';
import { checkScenario, prepareScenario } from './scenario-check.ts';
import { checkResponse, hasScenario, type Scenario, scenarioById, type Variant } from './scenarios.ts';
import { launchFor } from './targets.ts';

export interface RunHooks {
  /** Transient progress (overwritten in a terminal). */
  status(line: string): void;
  /** A permanent line. */
  log(line: string): void;
  /** Called after every finished row, e.g. to save progress. */
  row?(row: Row): void;
}

const READY_TIMEOUT_MS = 30_000;
/** "Quiet": other processes use less than this share of one core. */
const QUIET_PCT = 20;
/** Never wait more than this in total over a run, however busy the machine stays. */
const QUIET_BUDGET_S = 15 * 60;
const READY_POLL_MS = 5;
const START_COST_S = 1.5; // rough, for the time-left estimate
const STEP_COST_S = 0.3;

interface Target {
  runtime: RuntimeId;
  framework: FrameworkId;
  variant: Variant;
  port: number;
  child: Child | null;
  startError: string | null;
  coldStartMs: number | null;
  checkErrors: Map<string, string>;
  /** Scenarios completed by their setup request for this target (Scenario.setup). */
  prepared: Map<string, Scenario>;
  /** Measured since its server started (with --fresh, the next measurement starts it again). */
  measured?: boolean;
}

const PROBE = scenarioById('test').checks[0]!;

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

export function plannedRows(config: Config, done: readonly Row[] = []): { runtime: RuntimeId; framework: FrameworkId; scenario: Scenario }[] {
  const skip = new Set(done.map((r) => `${r.runtime}/${r.framework}/${r.scenario}`));
  const out: { runtime: RuntimeId; framework: FrameworkId; scenario: Scenario }[] = [];
  for (const runtime of config.runtimes)
    for (const id of config.scenarios) {
      const scenario = scenarioById(id);
      if (scenario.runtimes && !scenario.runtimes.includes(runtime)) continue;
      for (const framework of config.frameworks)
        if (hasScenario(scenario, framework, runtime) && !skip.has(`${runtime}/${framework}/${id}`)) out.push({ runtime, framework, scenario });
    }
  return out;
}

export class Runner {
  aborted = false;
  /** Rows finished so far, also readable after an abort. */
  readonly rows: Row[] = [];
  readonly #workDir = mkdtempSync(join(tmpdir(), 'rove-bench-'));
  readonly #started = Date.now();
  #jobsDone = 0;
  #jobsTotal = 0;
  #secondsLeft = 0;
  #waitedS = 0;

  constructor(
    readonly config: Config,
    readonly hooks: RunHooks,
    /** Rows of an earlier, interrupted run of the same settings (--resume): kept, not measured again. */
    readonly done: readonly Row[] = [],
  ) {
    this.rows.push(...done);
  }

  abort(): void {
    this.aborted = true;
  }

  #checkAbort(): void {
    if (this.aborted) throw new Aborted();
  }

  async run(): Promise<Row[]> {
    const plan = plannedRows(this.config, this.done);
    const c = this.config;
    this.#jobsTotal = plan.length * c.rounds;
    this.#secondsLeft = plan.length * (c.warmupS + c.rounds * (c.durationS + STEP_COST_S)) + this.#targetsNeeded(plan).length * START_COST_S;
    try {
      for (const runtime of c.runtimes) {
        const mine = plan.filter((p) => p.runtime === runtime);
        if (mine.length === 0) continue;
        await this.#runRuntime(runtime, mine);
      }
    } finally {
      rmSync(this.#workDir, { recursive: true, force: true });
    }
    return this.rows;
  }

  #targetsNeeded(plan: { runtime: RuntimeId; framework: FrameworkId; scenario: Scenario }[]): string[] {
    return [...new Set(plan.map((p) => `${p.runtime}/${p.framework}/${p.scenario.variant}`))];
  }

  async #runRuntime(runtime: RuntimeId, plan: { framework: FrameworkId; scenario: Scenario }[]): Promise<void> {
    const scenarios = [...new Map(plan.map((p) => [p.scenario.id, p.scenario])).values()];
    const wanted = (f: FrameworkId, s: Scenario) => plan.some((p) => p.framework === f && p.scenario.id === s.id);
    const targets = new Map<string, Target>();
    const key = (f: FrameworkId, v: Variant) => `${f}/${v}`;
    for (const s of scenarios)
      for (const f of this.config.frameworks)
        if (wanted(f, s) && !targets.has(key(f, s.variant)))
          targets.set(key(f, s.variant), {
            runtime,
            framework: f,
            variant: s.variant,
            port: 0,
            child: null,
            startError: null,
            coldStartMs: null,
            checkErrors: new Map(),
            prepared: new Map(),
          });
    const rows = this.rows;
    try {
      for (const t of targets.values()) {
        this.#checkAbort();
        await this.#start(t);
        this.#secondsLeft -= START_COST_S;
        if (!t.startError) await this.#checkAll(t, scenarios);
        const label = `${runtime} · ${t.framework}${t.variant === 'default' ? '' : ` (${t.variant})`}`;
        if (t.startError) this.hooks.log(`  ${label}: failed to start: ${t.startError}`);
        else {
          const failed = [...t.checkErrors.keys()];
          this.hooks.log(
            `  ${label}: ready in ${t.coldStartMs === null ? '?' : t.coldStartMs.toFixed(0)} ms (pid ${t.child!.pid}, port ${t.port})` +
              (failed.length ? `; check failed: ${failed.join(', ')}` : ''),
          );
        }
      }
      for (const s of scenarios) {
        const frameworks = this.config.frameworks.filter((f) => wanted(f, s));
        const rounds: Map<FrameworkId, Row[]> = new Map(frameworks.map((f) => [f, []]));
        for (let round = 0; round < this.config.rounds; round++) {
          // Rotate the order each round so no framework always goes first.
          const order = frameworks.map((_, i) => frameworks[(i + round) % frameworks.length]!);
          for (const f of order) {
            this.#checkAbort();
            const t = targets.get(key(f, s.variant))!;
            if (this.config.fresh && t.measured) await this.#restart(t, s);
            t.measured = true;
            const row = s.method === 'alternate-listener' ? await this.#measureListener(t, s, round) : await this.#measure(t, s, round);
            rounds.get(f)!.push(row);
            this.#jobsDone++;
          }
        }
        for (const f of frameworks) {
          const row = rowOfRounds(rounds.get(f)!, s.method);
          rows.push(row);
          this.hooks.log(describeRow(row));
          this.hooks.row?.(row);
        }
      }
    } finally {
      for (const t of targets.values()) if (t.child) await stopChild(t.child);
    }
  }

  async #start(t: Target): Promise<void> {
    this.#status(`${t.runtime} · ${t.framework} · starting`);
    t.startError = null;
    t.coldStartMs = null;
    t.port = await freePort();
    let launch: ReturnType<typeof launchFor>;
    try {
      launch = launchFor({
        runtime: t.runtime,
        framework: t.framework,
        variant: t.variant,
        port: t.port,
        workDir: this.#workDir,
        processes: this.config.processes,
        baseline: this.config.baseline,
        cpuProfDir: t.runtime !== 'workerd' ? this.config.cpuProf : undefined,
        perfMap: this.config.perf !== undefined,
      });
    } catch (err) {
      t.startError = (err as Error).message;
      return;
    }
    const t0 = performance.now();
    const cmd = pinnedCommand(launch.bin, launch.args);
    const child = startChild(cmd.bin, cmd.args, launch.env, launch.cwd);
    t.child = child;
    try {
      const res = await firstAnswer(t.port, PROBE.request, child, READY_TIMEOUT_MS, READY_POLL_MS);
      if (checkResponse(PROBE.expect, res) === null) t.coldStartMs = performance.now() - t0;
    } catch (err) {
      t.startError = (err as Error).message;
      await stopChild(child);
    }
  }

  /** A fresh server for the next measurement (--fresh): stopped, started, and its scenario set up again. */
  async #restart(t: Target, s: Scenario): Promise<void> {
    if (t.child) await stopChild(t.child);
    t.child = null;
    await this.#start(t);
    if (!t.startError) await this.#checkAll(t, [s]);
    else this.hooks.log(`  ${t.runtime} · ${t.framework}: failed to start again: ${t.startError}`);
    const child = t.child as Child | null; // set again by #start
    if (child) this.hooks.log(`  ${t.runtime} · ${t.framework}: fresh process for ${s.id} (pid ${child.pid}, port ${t.port})`);
    t.measured = false;
  }

  async #checkAll(t: Target, scenarios: Scenario[]): Promise<void> {
    t.checkErrors.clear();
    for (const s of scenarios) {
      if (s.variant !== t.variant || !hasScenario(s, t.framework, t.runtime)) continue;
      let err: string | null;
      try {
        const ready = await prepareScenario(t.port, s);
        t.prepared.set(s.id, ready);
        err = await checkScenario(t.port, ready);
      } catch (e) {
        err = `setup ${s.setup?.request.path}: ${(e as Error).message}`;
      }
      if (err) t.checkErrors.set(s.id, err);
    }
  }

  async #measure(t: Target, s: Scenario, round: number, tag = '', warmUp = round === 0 || this.config.fresh): Promise<Row> {
    const c = this.config;
    const row = emptyRow(t.runtime, t.framework, s.id, null);
    const label = `${t.runtime} · ${t.framework} · ${s.id}${tag}${c.rounds > 1 ? ` · round ${round + 1}/${c.rounds}` : ''}`;
    const warm = warmUp ? c.warmupS : 0;
    // Counted as spent when the step starts; #status adds what is left of it.
    this.#secondsLeft -= warm + c.durationS + STEP_COST_S;
    if (t.child?.exited && !t.startError) {
      this.hooks.log(`  ${t.runtime} · ${t.framework}: the target had exited (${t.child.exitSignal ?? t.child.exitCode}); restarting`);
      await this.#start(t);
      if (!t.startError) await this.#checkAll(t, [s]);
    }
    row.coldStartMs = t.coldStartMs;
    if (t.startError) {
      row.error = `failed to start: ${t.startError}`;
      return row;
    }
    const checkError = t.checkErrors.get(s.id);
    if (checkError) {
      row.error = `check failed, not measured: ${checkError}`;
      return row;
    }
    const child = t.child!;
    const request = (t.prepared.get(s.id) ?? s).request;
    // The load this runtime sustains (workerd: unpipelined), and a scenario's own pipelining (DB: 1); the row records it when it differs.
    const load = { ...loadFor(t.runtime, c, s.id), ...(s.pipelining ? { pipelining: s.pipelining, reason: SCENARIO_PIPELINING_REASON } : {}) };
    if (load.connections !== c.connections || load.pipelining !== c.pipelining) row.load = load;
    const pool = s.method === 'pool-p99' && s.saturate !== undefined;
    let perf: PerfWindow | null = null;
    try {
      if (s.variant === 'db') await tidyDatabase();
      await this.#waitQuiet(label);
      if (warm > 0 && !pool) {
        await runLoad({
          port: t.port,
          request,
          connections: load.connections,
          pipelining: load.pipelining,
          durationS: warm,
          onTick: (e) => this.#status(`${label} · warm-up ${Math.min(e, warm).toFixed(1)}/${warm} s`, warm - e + c.durationS),
        });
        this.#checkAbort();
      }
      const pids = processTree(child.pid);
      resetPeakRss(pids);
      const background = backgroundMeter();
      if (c.perf) perf = startPerf(c.perf, { runtime: t.runtime, framework: t.framework, scenario: s.id, round: round + 1, tag }, pids);
      const cpu0 = treeCpuUs(pids);
      let r: LoadResult;
      if (pool) {
        // The measured window is the probe's; the saturation starts before it (its own warm-up).
        const pr = await poolRound({
          port: t.port,
          probe: request,
          saturate: s.saturate!,
          connections: load.connections,
          durationS: c.durationS,
          warmupS: warm,
          onTick: (what, e) => this.#status(`${label} · ${what} ${e.toFixed(1)} s`, c.durationS - e),
        });
        r = pr.probe;
        row.saturation = pr.saturation;
      } else {
        r = await runLoad({
          port: t.port,
          request,
          connections: load.connections,
          pipelining: load.pipelining,
          durationS: c.durationS,
          onTick: (e) => this.#status(`${label} · measure ${Math.min(e, c.durationS).toFixed(1)}/${c.durationS} s`, c.durationS - e),
        });
      }
      const after = [...new Set([...pids, ...processTree(child.pid)])];
      const cpu = cpuDeltaUs(cpu0, treeCpuUs(after));
      await perf?.stop(r.requests, cpu);
      perf = null;
      const bg = background();
      row.backgroundCpuPct = bg === null ? null : Math.round(bg);
      row.rssPeakMB = round1(peakRssMB(after));
      row.rps = { avg: r.rpsAvg, p50: r.rpsP50 };
      row.latencyMs = r.latency;
      row.requests = r.requests;
      row.errors = r.errors;
      row.timeouts = r.timeouts;
      row.non2xx = r.non2xx;
      // Under a saturating load the server's CPU is mostly the other route's: no per-request figure.
      row.cpuUsPerReq = r.requests > 0 && !pool ? round2(cpu / r.requests) : null;
      const problems: string[] = [];
      if (child.exited) problems.push(`the target exited during the load (${child.exitSignal ?? `code ${child.exitCode}`}): ${child.output()}`);
      if (r.errors) problems.push(`${r.errors} errors`);
      if (r.timeouts) problems.push(`${r.timeouts} timeouts`);
      // A 304 scenario expects 3xx answers; anything else outside 2xx is a failure.
      const unexpected = s.checks[0]!.expect.status === 304 ? r.non2xx - r.status3xx : r.non2xx;
      if (unexpected) problems.push(`${unexpected} non-2xx responses`);
      if (r.requests === 0) problems.push('no request completed');
      const sat = row.saturation;
      if (sat && (sat.errors || sat.timeouts || sat.non2xx))
        problems.push(`saturating ${sat.path}: ${sat.errors} errors, ${sat.timeouts} timeouts, ${sat.non2xx} non-2xx responses`);
      row.ok = problems.length === 0;
      const limit = row.ok ? undefined : knownLimit(row.runtime, row.scenario, load.pipelining);
      row.error = row.ok ? null : `under load: ${problems.join(', ')}${limit ? ` (known runtime limit: ${limit.note})` : ''}`;
    } catch (err) {
      await perf?.stop(0, 0); // a window with no requests: perf-split leaves it out
      if (err instanceof Aborted) throw err;
      row.error = `load failed: ${(err as Error).message}`;
    }
    return row;
  }

  /**
   * One round of the listener cost: the same process measured with its empty listener
   * switched off and on, in an order that alternates from round to round.
   */
  async #measureListener(t: Target, s: Scenario, round: number): Promise<Row> {
    const states = round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
    const got: Partial<Record<'on' | 'off', Row>> = {};
    for (const [i, state] of states.entries()) {
      this.#checkAbort();
      if (!t.startError && t.child && !t.child.exited) {
        const err = await setListener(t.port, state);
        if (err) return emptyRow(t.runtime, t.framework, s.id, `could not switch the listener ${state}: ${err}`);
      }
      got[state] = await this.#measure(t, s, round, ` · listener ${state}`, (round === 0 || this.config.fresh) && i === 0);
    }
    const on = got.on!;
    const off = got.off!;
    // The row is the listener-on measurement; its off twin rides along for combineListenerRounds.
    return {
      ...on,
      ok: on.ok && off.ok,
      error: on.error ?? off.error,
      listenerOff: {
        rps: off.rps.avg,
        cpuUsPerReq: off.cpuUsPerReq,
        p99: off.latencyMs.p99,
        roundsRps: [off.rps.avg],
        roundsCpuUsPerReq: [off.cpuUsPerReq],
        roundsP99: [off.latencyMs.p99],
      },
    };
  }

  /** Waits (within the run's budget) until other processes leave the CPU alone. */
  async #waitQuiet(label: string): Promise<void> {
    const max = Math.min(this.config.waitQuietS, QUIET_BUDGET_S - this.#waitedS);
    if (max <= 0) return;
    const start = performance.now();
    let pct: number | null = null;
    for (;;) {
      const meter = backgroundMeter();
      await sleep(1000);
      this.#checkAbort();
      pct = meter();
      const waited = (performance.now() - start) / 1000;
      if (pct === null || pct < QUIET_PCT) break;
      if (waited >= max) {
        this.hooks.log(`  ${label}: other processes still use ${pct.toFixed(0)}% of a core after ${waited.toFixed(0)} s; measuring anyway`);
        break;
      }
      this.#status(`${label} · waiting for a quiet machine (others use ${pct.toFixed(0)}% of a core, ${waited.toFixed(0)}/${max.toFixed(0)} s)`);
    }
    const waited = (performance.now() - start) / 1000;
    // The one-second probe itself is not a wait.
    if (waited > 1.5) this.#waitedS += waited;
  }

  #status(what: string, stepLeftS = 0): void {
    const elapsed = (Date.now() - this.#started) / 1000;
    const left = Math.max(0, this.#secondsLeft + Math.max(0, stepLeftS));
    const n = Math.min(this.#jobsDone + 1, this.#jobsTotal);
    this.hooks.status(`[${n}/${this.#jobsTotal}] ${what} · elapsed ${clock(elapsed)} · left ~${clock(left)}`);
  }
}

const round1 = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);
const round2 = (n: number) => Math.round(n * 100) / 100;
