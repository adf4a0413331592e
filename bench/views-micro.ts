/**
 * In-process renders/s of the each-meta view (50 items) with Rove views,
 * liquidjs (interpreted, edge-safe) and Handlebars (compiled with new Function,
 * not allowed on the edge), on equivalent templates with identical output.
 *
 *   npm run bench:views            (node --import tsx bench/views-micro.ts)
 *   node --import tsx bench/views-micro.ts --seconds 2 --rounds 5
 */
import Handlebars from 'handlebars';
import { Liquid } from 'liquidjs';
import { createViews } from '../src/views/index.ts';

const args = process.argv.slice(2);
const arg = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const seconds = arg('seconds', 1);
const rounds = arg('rounds', 5);

const items = Array.from({ length: 50 }, (_, i) => i);
const data = { items };

const rove = createViews({
  templates: {
    'each-meta.dve': '{{#each items as item}}({{ @index }}/{{ @length }} {{#if @first}}F{{else}}-{{/if}}{{#if @last}}L{{else}}-{{/if}}={{ item }});{{/each}}',
  },
});

const liquid = new Liquid();
const liquidTpl = liquid.parse(
  '{% for item in items %}({{ forloop.index0 }}/{{ forloop.length }} {% if forloop.first %}F{% else %}-{% endif %}{% if forloop.last %}L{% else %}-{% endif %}={{ item }});{% endfor %}',
);

// Handlebars has no @length; the loop's array length is reached through @root.
const hbsSource = '{{#each items}}({{@index}}/{{@root.items.length}} {{#if @first}}F{{else}}-{{/if}}{{#if @last}}L{{else}}-{{/if}}={{this}});{{/each}}';
const hbs = Handlebars.compile(hbsSource);
// Its fastest output: helpers known at compile time are called directly.
const hbsFast = Handlebars.compile(hbsSource, { knownHelpers: { each: true, if: true }, knownHelpersOnly: true });

const expected = items.map((i) => `(${i}/50 ${i === 0 ? 'F' : '-'}${i === 49 ? 'L' : '-'}=${i});`).join('');

type Case = { name: string; run: () => unknown };
const cases: Case[] = [
  { name: 'rove renderSync', run: () => rove.renderSync('each-meta', data) },
  { name: 'liquidjs renderSync', run: () => liquid.renderSync(liquidTpl, data) },
  { name: 'handlebars compiled', run: () => hbs(data) },
  { name: 'handlebars knownHelpers', run: () => hbsFast(data) },
];

for (const c of cases) {
  const out = c.run();
  if (out !== expected) throw new Error(`${c.name} renders differently:\n${String(out)}\n${expected}`);
}
if ((await rove.render('each-meta', data)) !== expected) throw new Error('rove render() differs');

function measure(run: () => unknown, ms: number): number {
  // Batches keep the clock out of the loop.
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 200; i++) run();
    n += 200;
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}

async function measureAsync(ms: number): Promise<number> {
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 200; i++) await rove.render('each-meta', data);
    n += 200;
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const results = new Map<string, number[]>();
for (const c of cases) measure(c.run, 300); // warm up
await measureAsync(300);
for (let r = 0; r < rounds; r++) {
  // Interleaved rounds, so machine noise hits every engine alike.
  for (const c of cases) {
    const list = results.get(c.name) ?? [];
    list.push(measure(c.run, seconds * 1000));
    results.set(c.name, list);
  }
  const list = results.get('rove render() (async)') ?? [];
  list.push(await measureAsync(seconds * 1000));
  results.set('rove render() (async)', list);
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const roveRps = median(results.get('rove renderSync')!);
const liquidRps = median(results.get('liquidjs renderSync')!);
const hbsRps = median(results.get('handlebars compiled')!);
const hbsFastRps = median(results.get('handlebars knownHelpers')!);
const g = globalThis as { Deno?: { version: { deno: string } }; Bun?: { version: string } };
const runtime = g.Deno ? `deno ${g.Deno.version.deno}` : g.Bun ? `bun ${g.Bun.version}` : `node ${process.version}`;
console.log(`each-meta, 50 items, ${expected.length} chars; median of ${rounds} rounds of ${seconds}s; ${runtime}`);
for (const [name, list] of results) console.log(`  ${name.padEnd(26)} ${fmt(median(list)).padStart(12)} renders/s`);
console.log(`  rove / liquidjs     ${(roveRps / liquidRps).toFixed(2)}x   (target >= 3x)`);
console.log(`  rove / handlebars   ${(roveRps / hbsRps).toFixed(2)}x   (target >= 0.67x, i.e. within 1.5x)`);
console.log(`  rove / handlebars knownHelpersOnly   ${(roveRps / hbsFastRps).toFixed(2)}x`);
