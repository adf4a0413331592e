// Summarises V8 .cpuprofile files (from `npm run bench -- --cpu-prof DIR`):
// self time by function and by file group, to see where a framework's time goes.
//
//   node --import tsx bench/profile.ts DIR/rove-default-*.cpuprofile [--top 25]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { ROOT } from '../dev/proc.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  busyMs: number;
  functions: { name: string; where: string; selfMs: number }[];
  groups: { group: string; selfMs: number }[];
}

/** Which part of the stack a script URL belongs to. */
export function groupOf(url: string): string {
  if (!url) return '(native / V8)';
  if (url.startsWith('node:')) return 'node internals';
  const path = url.startsWith('file://') ? decodeURIComponent(url.slice(7)) : url;
  const rel = relative(ROOT, path);
  if (rel.startsWith('src/')) return `rove core: ${rel}`;
  if (rel.startsWith('adapters/')) return `rove adapter: ${rel}`;
  if (rel.startsWith('node_modules/'))
    return `dependency: ${rel
      .split('/')
      .slice(1, rel.split('/')[1]!.startsWith('@') ? 3 : 2)
      .join('/')}`;
  if (rel.startsWith('..')) return path;
  return rel;
}

export function summarise(profile: CpuProfile): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let total = 0;
  // timeDeltas[i] is the time before sample i; attribute it to that sample's node.
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    total += dt;
    self.set(id, (self.get(id) ?? 0) + dt);
  });
  const fn = new Map<string, { name: string; where: string; selfMs: number }>();
  const groups = new Map<string, number>();
  let idle = 0;
  for (const [id, ms] of self) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idle += ms;
      continue;
    }
    const name = functionName || '(anonymous)';
    const where = url ? `${groupOf(url).replace(/^[^:]+: /, '')}:${lineNumber + 1}` : '';
    const key = `${name}@${where}`;
    const entry = fn.get(key) ?? { name, where, selfMs: 0 };
    entry.selfMs += ms;
    fn.set(key, entry);
    const g = url ? groupOf(url) : name.startsWith('(') ? name : '(native / V8)';
    groups.set(g, (groups.get(g) ?? 0) + ms);
  }
  return {
    totalMs: total,
    busyMs: total - idle,
    functions: [...fn.values()].sort((a, b) => b.selfMs - a.selfMs),
    groups: [...groups].map(([group, selfMs]) => ({ group, selfMs })).sort((a, b) => b.selfMs - a.selfMs),
  };
}

function main(): void {
  const args = process.argv.slice(2);
  const topAt = args.indexOf('--top');
  const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;
  for (const file of args) {
    const s = summarise(JSON.parse(readFileSync(file, 'utf8')));
    const pct = (ms: number) => `${((ms / s.busyMs) * 100).toFixed(1).padStart(5)}%`;
    console.log(
      `\n${file}: ${(s.totalMs / 1000).toFixed(1)} s sampled, ${(s.busyMs / 1000).toFixed(1)} s busy\n\nself time by file group (share of busy time)`,
    );
    for (const g of s.groups.slice(0, top)) console.log(`  ${pct(g.selfMs)}  ${g.group}`);
    console.log('\nself time by function');
    for (const f of s.functions.slice(0, top)) console.log(`  ${pct(f.selfMs)}  ${f.name}  ${f.where}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
