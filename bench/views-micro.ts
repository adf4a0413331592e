/**
 * In-process renders/s of two views of 50 items, each-meta (loop values) and filter (a date and
 * a currency filter per item, the test-view-filter scenario's page), with Rove views, liquidjs
 * (interpreted, edge-safe; its filters) and Handlebars (compiled with new Function, not allowed
 * on the edge; its helpers), on equivalent templates with identical output.
 *
 *   npm run bench:views            (node --import tsx bench/views-micro.ts)
 *   node --import tsx bench/views-micro.ts --seconds 2 --rounds 5
 */
import Handlebars from 'handlebars';
import { Liquid } from 'liquidjs';
import { FILTER_VIEW } from '../examples/bench/views.ts';
import { createViews } from '../src/views/index.ts';
import { FILTER_DATE, FILTER_ITEMS, filterList, formatCurrency, formatDate } from './shared/html.ts';

const args = process.argv.slice(2);
const arg = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const seconds = arg('seconds', 1);
const rounds = arg('rounds', 5);

const items = Array.from({ length: 50 }, (_, i) => i);

// Filters each engine is given for the filter view: the same Intl formatters (bench/shared/html.ts).
const currency = (v: unknown, code: unknown) => formatCurrency(Number(v), String(code));
const hbsEnv = Handlebars.create();
hbsEnv.registerHelper('date', (v: unknown) => formatDate(Number(v)));
hbsEnv.registerHelper('currency', currency);
const liquid = new Liquid();
liquid.registerFilter('date_medium', (v: unknown) => formatDate(Number(v)));
liquid.registerFilter('currency', currency);
const rove = createViews({
  templates: {
    'each-meta.dve': '{{#each items as item}}({{ @index }}/{{ @length }} {{#if @first}}F{{else}}-{{/if}}{{#if @last}}L{{else}}-{{/if}}={{ item }});{{/each}}',
    'filter.dve': FILTER_VIEW,
  },
  locale: 'en-US',
  filters: { currency },
});

interface View {
  name: string;
  data: unknown;
  expected: string;
  liquid: string;
  hbs: string;
  /** Helpers Handlebars may call directly (knownHelpersOnly). */
  known: Record<string, boolean>;
}

// Handlebars has no @length; the loop's array length is reached through @root.
const VIEWS: View[] = [
  {
    name: 'each-meta',
    data: { items },
    expected: items.map((i) => `(${i}/50 ${i === 0 ? 'F' : '-'}${i === 49 ? 'L' : '-'}=${i});`).join(''),
    liquid:
      '{% for item in items %}({{ forloop.index0 }}/{{ forloop.length }} {% if forloop.first %}F{% else %}-{% endif %}{% if forloop.last %}L{% else %}-{% endif %}={{ item }});{% endfor %}',
    hbs: '{{#each items}}({{@index}}/{{@root.items.length}} {{#if @first}}F{{else}}-{{/if}}{{#if @last}}L{{else}}-{{/if}}={{this}});{{/each}}',
    known: { each: true, if: true },
  },
  {
    // The test-view-filter scenario's page: 50 items, a date and a currency filter each.
    name: 'filter',
    data: { items: FILTER_ITEMS, dateFormat: FILTER_DATE },
    expected: filterList(FILTER_ITEMS),
    liquid: "<ul>{% for item in items %}<li>{{ item.name }}: {{ item.at | date_medium }}, {{ item.price | currency: 'EUR' }}</li>{% endfor %}</ul>",
    hbs: '<ul>{{#each items}}<li>{{name}}: {{date at}}, {{currency price "EUR"}}</li>{{/each}}</ul>',
    known: { each: true, date: true, currency: true },
  },
];

type Case = { name: string; run: () => unknown };
function casesOf(v: View): Case[] {
  const liquidTpl = liquid.parse(v.liquid);
  const hbs = hbsEnv.compile(v.hbs);
  // Its fastest output: helpers known at compile time are called directly.
  const hbsFast = hbsEnv.compile(v.hbs, { knownHelpers: v.known, knownHelpersOnly: true });
  const cases: Case[] = [
    { name: 'rove renderSync', run: () => rove.renderSync(v.name, v.data) },
    { name: 'liquidjs renderSync', run: () => liquid.renderSync(liquidTpl, v.data as object) },
    { name: 'handlebars compiled', run: () => hbs(v.data as object) },
    { name: 'handlebars knownHelpers', run: () => hbsFast(v.data as object) },
  ];
  for (const c of cases) {
    const out = c.run();
    if (out !== v.expected) throw new Error(`${v.name}: ${c.name} renders differently:\n${String(out)}\n${v.expected}`);
  }
  return cases;
}

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

async function measureAsync(view: View, ms: number): Promise<number> {
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 200; i++) await rove.render(view.name, view.data);
    n += 200;
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const g = globalThis as { Deno?: { version: { deno: string } }; Bun?: { version: string } };
const runtime = g.Deno ? `deno ${g.Deno.version.deno}` : g.Bun ? `bun ${g.Bun.version}` : `node ${process.version}`;

for (const view of VIEWS) {
  const cases = casesOf(view);
  if ((await rove.render(view.name, view.data)) !== view.expected) throw new Error(`${view.name}: rove render() differs`);
  const results = new Map<string, number[]>();
  for (const c of cases) measure(c.run, 300); // warm up
  await measureAsync(view, 300);
  for (let r = 0; r < rounds; r++) {
    // Interleaved rounds, so machine noise hits every engine alike.
    for (const c of cases) {
      const list = results.get(c.name) ?? [];
      list.push(measure(c.run, seconds * 1000));
      results.set(c.name, list);
    }
    const list = results.get('rove render() (async)') ?? [];
    list.push(await measureAsync(view, seconds * 1000));
    results.set('rove render() (async)', list);
  }
  const roveRps = median(results.get('rove renderSync')!);
  const ratio = (name: string) => {
    const peer = results.get(name)!;
    const per = results
      .get('rove renderSync')!
      .map((r, i) => r / peer[i]!)
      .sort((a, b) => a - b);
    return `${(roveRps / median(peer)).toFixed(2)}x (rounds ${per[0]!.toFixed(2)}–${per[per.length - 1]!.toFixed(2)})`;
  };
  console.log(`${view.name}, 50 items, ${view.expected.length} chars; median of ${rounds} rounds of ${seconds}s; ${runtime}`);
  for (const [name, list] of results) console.log(`  ${name.padEnd(26)} ${fmt(median(list)).padStart(12)} renders/s`);
  console.log(`  rove / liquidjs     ${ratio('liquidjs renderSync')}`);
  console.log(`  rove / handlebars   ${ratio('handlebars compiled')}`);
  console.log(`  rove / handlebars knownHelpersOnly   ${ratio('handlebars knownHelpers')}`);
}
