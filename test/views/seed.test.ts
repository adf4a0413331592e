import { describe, expect, test } from 'vitest';
import { createViews } from '../../src/views/index.ts';

// The views of the load test's template scenarios (docs/benchmarks/methods.md), byte for byte.
const seedViews = {
  'hello.dve': 'Hello {{ name }}.',
  'include.dve': '{{> partial.dve}}',
  'partial.dve': 'Hello {{ name }}.',
  'each-meta.dve': '{{#each items as item}}({{ @index }}/{{ @length }} {{#if @first}}F{{else}}-{{/if}}{{#if @last}}L{{else}}-{{/if}}={{ item }});{{/each}}',
  'expr.dve': "Hello {{ user?.name ?? 'Guest' }}.\n{{#if user?.isAdmin ? true : false}}ADMIN{{else}}USER{{/if}}\nSum={{ 1 + 2 * 3 }}",
  'fortunes.dve':
    '<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>' +
    '{{#each fortunes as f}}<tr><td>{{ f.id }}</td><td>{{ f.message }}</td></tr>{{/each}}</table></body></html>',
};

const fortunes = [
  { id: 1, message: 'fortune: No such file or directory' },
  { id: 2, message: "A computer scientist is someone who fixes things that aren't broken." },
  { id: 3, message: 'After enough decimal places, nobody gives a damn.' },
  { id: 4, message: 'A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1' },
  { id: 5, message: 'A computer program does what you tell it to do, not what you want it to do.' },
  { id: 6, message: 'Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen' },
  { id: 7, message: 'Any program that runs right is obsolete.' },
  { id: 8, message: 'A list is only as strong as its weakest link. — Donald Knuth' },
  { id: 9, message: 'Feature: A bug with seniority.' },
  { id: 10, message: 'Computers make very fast, very accurate mistakes.' },
  { id: 11, message: '<script>alert("This should not be displayed in a browser alert box.");</script>' },
  { id: 12, message: 'フレームワークのベンチマーク' },
];

const fortunesPage =
  '<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>' +
  '<tr><td>11</td><td>&lt;script&gt;alert(&quot;This should not be displayed in a browser alert box.&quot;);&lt;/script&gt;</td></tr>' +
  '<tr><td>4</td><td>A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1</td></tr>' +
  '<tr><td>5</td><td>A computer program does what you tell it to do, not what you want it to do.</td></tr>' +
  '<tr><td>2</td><td>A computer scientist is someone who fixes things that aren&#39;t broken.</td></tr>' +
  '<tr><td>8</td><td>A list is only as strong as its weakest link. — Donald Knuth</td></tr>' +
  '<tr><td>0</td><td>Additional fortune added at request time.</td></tr>' +
  '<tr><td>3</td><td>After enough decimal places, nobody gives a damn.</td></tr>' +
  '<tr><td>7</td><td>Any program that runs right is obsolete.</td></tr>' +
  '<tr><td>10</td><td>Computers make very fast, very accurate mistakes.</td></tr>' +
  '<tr><td>6</td><td>Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen</td></tr>' +
  '<tr><td>9</td><td>Feature: A bug with seniority.</td></tr>' +
  '<tr><td>1</td><td>fortune: No such file or directory</td></tr>' +
  '<tr><td>12</td><td>フレームワークのベンチマーク</td></tr>' +
  '</table></body></html>';

describe('views > the seed benchmark views render byte for byte', () => {
  const views = createViews({ templates: seedViews });

  test('hello', async () => {
    expect(await views.render('hello', { name: 'World' })).toBe('Hello World.');
  });

  test('include', async () => {
    expect(await views.render('include', { name: 'Nea' })).toBe('Hello Nea.');
  });

  test('each-meta with 50 items', async () => {
    const out = await views.render('each-meta', { items: Array.from({ length: 50 }, (_, i) => i) });
    expect(out.length).toBe(680);
    expect(out.startsWith('(0/50 F-=0);(1/50 --=1);')).toBe(true);
    expect(out.endsWith('(48/50 --=48);(49/50 -L=49);')).toBe(true);
    let expected = '';
    for (let i = 0; i < 50; i++) expected += `(${i}/50 ${i === 0 ? 'F' : '-'}${i === 49 ? 'L' : '-'}=${i});`;
    expect(out).toBe(expected);
  });

  test('expr', async () => {
    expect(await views.render('expr', { user: { name: 'Nea', isAdmin: true } })).toBe('Hello Nea.\nADMIN\nSum=7');
    expect(await views.render('expr', {})).toBe('Hello Guest.\nUSER\nSum=7');
  });

  test('fortunes: sorted rows, the <script> payload escaped, Japanese text intact', async () => {
    const rows = [...fortunes, { id: 0, message: 'Additional fortune added at request time.' }];
    rows.sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
    const out = await views.render('fortunes', { fortunes: rows });
    expect(out).toBe(fortunesPage);
    expect(out).not.toContain('<script>');
    // The stream is the same page as UTF-8 bytes.
    const bytes = new Uint8Array(await new Response(views.stream('fortunes', { fortunes: rows })).arrayBuffer());
    expect(bytes).toEqual(new TextEncoder().encode(fortunesPage));
  });

  test('a large page streams in chunks without splitting characters', async () => {
    const big = createViews({ templates: { 'big.dve': '{{#each xs}}{{ item }}{{/each}}' } });
    const xs = Array.from({ length: 20_000 }, (_, i) => (i % 3 === 0 ? '😀' : 'フ'));
    const expected = xs.join('');
    const reader = big.stream('big', { xs }).getReader();
    const chunks: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(chunks.length).toBeGreaterThan(1);
    // Every chunk decodes on its own: no character is cut in two.
    const decoded = chunks.map((c) => new TextDecoder('utf-8', { fatal: true }).decode(c)).join('');
    expect(decoded).toBe(expected);
  });
});
