import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createViews, ViewError } from '../../src/views/index.ts';

// Pieces that make random input look like views, so the fuzzer reaches deep into the parser.
const pieces = [
  '{{',
  '}}',
  '{{{',
  '}}}',
  '{{~',
  '~}}',
  '{{!',
  '{{!--',
  '--}}',
  '{{#if ',
  '{{#each ',
  '{{else}}',
  '{{else if ',
  '{{/if}}',
  '{{/each}}',
  '{{> ',
  '{{< ',
  '{{/}}',
  '{{#block ',
  '{{/block}}',
  '{{#slot ',
  '{{/slot}}',
  ' as ',
  'x',
  'xs',
  'a.b',
  'a?.b',
  '[0]',
  "['k']",
  '@index',
  '@first',
  '@last',
  '@length',
  '@key',
  '(',
  ')',
  '[',
  ']',
  ' ? ',
  ' : ',
  '??',
  '||',
  '&&',
  '==',
  '===',
  '!=',
  '<',
  '>=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '!',
  '=',
  '+=',
  '++',
  '=>',
  '`',
  "'",
  '"',
  '\\',
  '\n',
  ' ',
  '\t',
  '1',
  '2.5',
  '1e3',
  'true',
  'null',
  'undefined',
  'new ',
  'f()',
  'constructor',
  '__proto__',
  'part',
  '../x',
  'p.dve',
  'k=1',
  'フ',
  '😀',
  '\u0000',
  '}',
  '{',
  '~',
  '#',
  '.',
];

const views = fc
  .array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 4 }), fc.string({ unit: 'binary', maxLength: 3 })), { maxLength: 40 })
  .map((xs) => xs.join(''));

const data = {
  x: '<x>',
  xs: [1, '<b>', null, { b: 2 }],
  a: { b: 'ab', k: 'k' },
  k: 'k',
  part: 'p',
  f: () => 'no',
  n: 0,
  m: new Map([['k', 'v']]),
  s: new Set([1]),
};

function renderAny(view: string): void {
  const engine = createViews({
    templates: { 'main.dve': view, 'part.dve': '[{{ x }}{{#slot a}}{{/slot}}]', 'p.dve': '{{#each xs}}{{ item }}{{/each}}' },
    limits: { loopIterations: 1000, totalIterations: 10_000, includeDepth: 8 },
  });
  try {
    const out = engine.renderSync('main', data);
    expect(typeof out).toBe('string');
  } catch (e) {
    if (!(e instanceof ViewError)) throw e;
    expect(['syntax', 'render', 'limit', 'not-found']).toContain(e.kind);
    expect(typeof e.message).toBe('string');
    if (e.kind === 'syntax') {
      expect(e.line).toBeGreaterThanOrEqual(1);
      expect(e.column).toBeGreaterThanOrEqual(1);
    }
  }
}

describe('views > fuzzing the parser', () => {
  test('random view-like input terminates and throws nothing but a ViewError', () => {
    fc.assert(
      fc.property(views, (view) => renderAny(view)),
      { numRuns: 1500 },
    );
  });

  test('random unicode input terminates and throws nothing but a ViewError', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (view) => renderAny(view)),
      { numRuns: 500 },
    );
  });

  test('random input inside a tag terminates and throws nothing but a ViewError', () => {
    const inner = fc.array(fc.constantFrom(...pieces.filter((p) => !p.includes('{'))), { maxLength: 30 }).map((xs) => xs.join(''));
    fc.assert(
      fc.property(inner, fc.constantFrom('{{ ', '{{{ ', '{{#if ', '{{#each ', '{{> part ', '{{< part '), (body, open) => {
        renderAny(`${open}${body} }}`);
        renderAny(`${open}${body}`);
      }),
      { numRuns: 1500 },
    );
  });
});
