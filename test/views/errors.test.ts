import { describe, expect, test } from 'vitest';
import { createViews, type ViewError, type ViewEvent, type ViewLimits } from '../../src/views/index.ts';

function fail(view: string, others: Record<string, string> = {}, data?: unknown, limits?: Partial<ViewLimits>): ViewError {
  const views = createViews({ templates: { ...others, 'main.dve': view }, limits });
  try {
    views.renderSync('main', data);
  } catch (e) {
    expect(e).toMatchObject({ name: 'ViewError' });
    return e as ViewError;
  }
  throw new Error(`expected an error rendering ${JSON.stringify(view)}`);
}

describe('views > syntax errors name the view, line and column, and show the line with a caret', () => {
  const table: [name: string, view: string, line: number, column: number, reason: RegExp][] = [
    ['an unclosed {{#if}}', 'a\n  {{#if x}}b', 2, 3, /unclosed \{\{#if\}\}/],
    ['an unclosed {{#each}}', '{{#each xs}}{{#if a}}{{/if}}', 1, 1, /unclosed \{\{#each\}\}/],
    ['an unclosed layout call', '{{< base}}{{#block a}}{{/block}}', 1, 1, /unclosed \{\{< layout\}\}/],
    ['an unclosed {{#block}}', '{{< base}}{{#block a}}', 1, 11, /unclosed \{\{#block\}\}/],
    ['a stray {{else}}', 'one\ntwo {{else}} three', 2, 5, /stray \{\{else\}\}/],
    ['a second {{else}}', '{{#if a}}1{{else}}2{{else}}3{{/if}}', 1, 20, /\{\{else\}\} after \{\{else\}\}/],
    ['{{else if}} in a loop', '{{#each xs}}{{else if a}}{{/each}}', 1, 13, /only allowed in \{\{#if\}\}/],
    ['a stray {{/each}}', 'x {{/each}}', 1, 3, /stray \{\{\/each\}\}/],
    ['a mismatched close', '{{#if a}}\n{{/each}}', 2, 1, /\{\{\/each\}\} does not close \{\{#if\}\} opened at line 1, column 1/],
    ['an unterminated string', 'Hello {{ "abc }}', 1, 10, /unterminated string/],
    ['a string broken by a newline', "{{ 'abc\ndef' }}", 1, 4, /unterminated string/],
    ['an unterminated tag', 'Hello {{ name', 1, 7, /unterminated tag/],
    ['an unterminated tag followed by more text', 'Hello {{ name \n more text {{ x }}', 1, 7, /unterminated tag/],
    ['an unterminated raw tag', '{{{ x }}', 1, 1, /unterminated tag|expected \}\}\}/],
    ['an unterminated comment', 'a {{!-- b }}', 1, 3, /unterminated comment/],
    ['an unknown block', '{{#with x}}{{/with}}', 1, 3, /unknown block \{\{#with\}\}/],
    ['a call', '{{ f(1) }}', 1, 5, /calls are not allowed/],
    ['a method call', '{{ user.name.toUpperCase() }}', 1, 25, /calls are not allowed/],
    ['an assignment', '{{ a = 1 }}', 1, 6, /assignment is not allowed/],
    ['a compound assignment', '{{#if a += 1}}{{/if}}', 1, 9, /assignment is not allowed/],
    ['an increment', '{{ a++ }}', 1, 5, /assignment is not allowed/],
    ['new', '{{ new Date() }}', 1, 4, /'new' is not allowed/],
    ['an arrow function', '{{ x => x }}', 1, 6, /functions are not allowed/],
    ['a template literal', '{{ `x` }}', 1, 4, /template literals are not allowed/],
    ['an unknown loop value', '{{ @key }}', 1, 4, /unknown loop value @key/],
    ['a bad number', '{{ 12px }}', 1, 4, /invalid number/],
    ['an unknown escape', "{{ 'a\\qb' }}", 1, 6, /unknown escape/],
    ['an expression with two values', '{{ a b }}', 1, 6, /unexpected 'b', expected \}\}/],
    ['an empty tag', 'x{{ }}', 1, 5, /expected an expression/],
    ['a missing colon', '{{ a ? b }}', 1, 10, /expected :/],
    ['a missing bracket', '{{ a[1 }}', 1, 8, /expected '\]'/],
    ['text inside a layout call', '{{< base}}hello{{/}}', 1, 11, /only \{\{#block\}\} tags/],
    ['output inside a layout call', '{{< base}}{{ x }}{{/}}', 1, 11, /only \{\{#block\}\} tags/],
    ['a block outside a layout call', '{{#block a}}{{/block}}', 1, 1, /must be directly inside/],
    ['a block given twice', '{{< base}}{{#block a}}{{/block}}{{#block a}}{{/block}}{{/}}', 1, 33, /given twice/],
    ['a layout closed with a name', '{{< base}}{{/base}}', 1, 11, /a layout call ends with \{\{\/\}\}/],
    ['a traversal in an include', 'x\n{{> ../etc/passwd}}', 2, 5, /cannot leave the views directory/],
  ];

  for (const [name, view, line, column, reason] of table) {
    test(name, () => {
      const err = fail(view, { 'base.dve': '{{#slot a}}{{/slot}}' });
      expect(err.kind).toBe('syntax');
      expect(err.view).toBe('main.dve');
      expect([err.line, err.column]).toEqual([line, column]);
      expect(err.reason).toMatch(reason);
      // The message repeats the line and puts a caret under the column.
      const lines = err.message.split('\n');
      expect(lines[0]).toContain(`main.dve:${line}:${column}`);
      const src = view.split('\n')[line - 1]!;
      expect(lines[1]).toBe(`${line} | ${src}`);
      expect(lines[2]).toBe(`${' '.repeat(String(line).length)} | ${' '.repeat(column - 1)}^`);
    });
  }

  test('a block naming a slot the layout lacks', () => {
    const err = fail('{{< base}}\n  {{#block nope}}x{{/block}}{{/}}', { 'base.dve': '{{#slot a}}{{/slot}}' });
    expect(err).toMatchObject({ kind: 'syntax', view: 'main.dve', line: 2, column: 3 });
    expect(err.message).toMatch(/block "nope" names no slot of layout base \(it has: a\)/);
    expect(err.message).toContain('^');
  });

  test('an include of a missing view names the including view and the tag', () => {
    const err = fail('a\n  {{> missing/part}}');
    expect(err).toMatchObject({ kind: 'not-found', view: 'main.dve', line: 2, column: 3 });
    expect(err.message).toContain('missing/part.dve');
  });

  test('rendering a missing view', async () => {
    const views = createViews({ templates: {} });
    await expect(views.render('nope')).rejects.toMatchObject({ kind: 'not-found', view: 'nope' });
  });

  test('a syntax error in an included view names that view', () => {
    const err = fail('{{> part}}', { 'part.dve': 'ok\n{{#if}}' });
    expect(err).toMatchObject({ kind: 'syntax', view: 'part.dve', line: 2, column: 6 });
  });

  test('a tab before the column keeps the caret aligned', () => {
    const err = fail('\t\t{{ a( }}');
    expect(err.message.split('\n')[2]).toBe('  | \t\t    ^');
  });

  test('a very long line is shown as a window around the caret', () => {
    const err = fail(`${'x'.repeat(5000)}{{ ( }}${'y'.repeat(5000)}`);
    const [, src, caret] = err.message.split('\n');
    expect(src!.length).toBeLessThan(120);
    expect(src![caret!.indexOf('^')]).toBe('}');
  });
});

describe('views > render errors and limits', () => {
  const secret = 'SECRET-VALUE-123';

  test('a view including itself stops at the include depth', () => {
    const err = fail('x{{> main}}');
    expect(err).toMatchObject({ kind: 'limit', view: 'main.dve', line: 1, column: 2 });
    expect(err.message).toMatch(/includeDepth \(64\)/);
  });

  test('two views including each other stop too', () => {
    const err = fail('{{> a}}', { 'a.dve': '{{> b}}', 'b.dve': '{{> a}}' });
    expect(err.kind).toBe('limit');
  });

  test('a layout using itself stops at the include depth', () => {
    expect(fail('{{< main}}{{/}}').kind).toBe('limit');
  });

  test('an include depth limit can be set', () => {
    const views = createViews({ templates: { 'main.dve': '{{#if n > 0}}{{> main n=n - 1}}{{/if}}.' }, limits: { includeDepth: 3 } });
    expect(views.renderSync('main', { n: 3 })).toBe('....');
    expect(() => views.renderSync('main', { n: 4 })).toThrow(/includeDepth \(3\)/);
  });

  test('recursion past the stack is a limit error, not a crash', () => {
    const err = fail('{{> main}}', {}, {}, { includeDepth: 1e9 });
    expect(err.kind).toBe('limit');
  });

  test('iterations of one loop', () => {
    const err = fail('{{#each xs}}{{ item }}{{/each}}', {}, { xs: Array(11).fill(secret) }, { loopIterations: 10 });
    expect(err).toMatchObject({ kind: 'limit', line: 1, column: 1 });
    expect(err.message).toMatch(/loopIterations \(10\)/);
    expect(err.message).not.toContain(secret);
  });

  test('an endless iterable stops at the loop limit', () => {
    function* forever() {
      for (;;) yield 1;
    }
    const err = fail('{{#each xs}}{{/each}}', {}, { xs: forever() }, { loopIterations: 1000 });
    expect(err.kind).toBe('limit');
  });

  test('a Set or Map over the loop limit', () => {
    expect(fail('{{#each xs}}{{/each}}', {}, { xs: new Set([1, 2, 3]) }, { loopIterations: 2 }).kind).toBe('limit');
  });

  test('iterations of all loops in one render', () => {
    const err = fail('{{#each xs}}{{#each xs}}.{{/each}}{{/each}}', {}, { xs: Array(5).fill(0) }, { totalIterations: 20 });
    expect(err).toMatchObject({ kind: 'limit', line: 1, column: 13 });
    expect(err.message).toMatch(/totalIterations \(20\)/);
  });

  test('the default limits stop a 1,000 x 1,000 x 1,000 loop quickly', () => {
    const xs = Array(1000).fill(0);
    const t0 = performance.now();
    const err = fail('{{#each xs}}{{#each xs}}{{#each xs}}{{/each}}{{/each}}{{/each}}', {}, { xs });
    expect(err.kind).toBe('limit');
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  test('output size', () => {
    const err = fail('{{#each xs}}{{ item }}{{/each}}', {}, { xs: Array(100).fill(secret) }, { outputSize: 100 });
    expect(err).toMatchObject({ kind: 'limit' });
    expect(err.message).toMatch(/outputSize \(100/);
    expect(err.message).not.toContain(secret);
    // Also without a loop.
    expect(fail('{{ s }}{{ s }}', {}, { s: 'x'.repeat(60) }, { outputSize: 100 }).kind).toBe('limit');
  });

  test('template size', async () => {
    const views = createViews({ templates: { 'main.dve': 'x'.repeat(101) }, limits: { templateSize: 100 } });
    await expect(views.render('main')).rejects.toMatchObject({ kind: 'limit', view: 'main.dve' });
    await expect(createViews({ templates: { 'main.dve': 'x'.repeat(1024 * 1024 + 1) } }).render('main')).rejects.toMatchObject({ kind: 'limit' });
  });

  test('deep nesting of blocks is a limit error, not a stack overflow', () => {
    const n = 50_000; // stays under the 1 MiB template size
    const err = fail('{{#if a}}'.repeat(n) + '{{/if}}'.repeat(n));
    expect(err).toMatchObject({ kind: 'limit', line: 1 });
    expect(err.message).toMatch(/nested more than 100/);
    expect(fail('{{#if a}}'.repeat(50) + '{{/if}}'.repeat(50), {}, {}, { nesting: 10 }).kind).toBe('limit');
    expect(createViews({ templates: { 'main.dve': `${'{{#if a}}'.repeat(99)}x${'{{/if}}'.repeat(99)}` } }).renderSync('main', { a: 1 })).toBe('x');
  });

  test('deep nesting in expressions is a limit error, not a stack overflow', () => {
    for (const view of [
      `{{ ${'('.repeat(100_000)}1${')'.repeat(100_000)} }}`,
      `{{ ${'!'.repeat(100_000)}1 }}`,
      `{{ ${'-'.repeat(10_000).split('').join(' ')}1 }}`,
      `{{ 1${' + 1'.repeat(100_000)} }}`,
      `{{ a${'.b'.repeat(100_000)} }}`,
      `{{ a${'[0]'.repeat(100_000)} }}`,
      `{{ ${'a ? '.repeat(50_000)}1${' : 2'.repeat(50_000)} }}`,
      `{{ ${'a['.repeat(50_000)}0${']'.repeat(50_000)} }}`,
    ]) {
      const err = fail(view);
      expect(err.kind, view.slice(0, 20)).toBe('limit');
      expect(err.line).toBe(1);
    }
    expect(createViews({ templates: { 'main.dve': `{{ 1${' + 1'.repeat(90)} }}` } }).renderSync('main')).toBe('91');
  });

  test('a value that cannot become text names the view and tag, never the value', () => {
    const err = fail('a\n{{ o }}', {}, { o: Object.create(null) });
    expect(err).toMatchObject({ kind: 'render', view: 'main.dve', line: 2, column: 1 });
  });

  test('a getter that throws is a render error with the original as cause', () => {
    const o = Object.defineProperty({}, 'x', {
      get() {
        throw new Error(secret);
      },
      enumerable: true,
    });
    const err = fail('{{ o.x }}', {}, { o });
    expect(err.kind).toBe('render');
    expect(err.message).not.toContain(secret);
    expect((err.cause as Error).message).toBe(secret);
  });

  test('a failed render leaves the engine usable', () => {
    const views = createViews({ templates: { 'main.dve': '{{#each xs}}{{ item }}{{/each}}' }, limits: { loopIterations: 3 } });
    expect(() => views.renderSync('main', { xs: [1, 2, 3, 4] })).toThrow();
    expect(views.renderSync('main', { xs: [1, 2, 3] })).toBe('123');
  });

  test('stream() errors the stream with the ViewError', async () => {
    const views = createViews({ templates: { 'main.dve': '{{> main}}' } });
    await expect(new Response(views.stream('main')).text()).rejects.toMatchObject({ kind: 'limit' });
    await expect(new Response(views.stream('nope')).text()).rejects.toMatchObject({ kind: 'not-found' });
  });
});

describe('views > events', () => {
  test('onEvent hears compiled, rendered and error events', async () => {
    const events: ViewEvent[] = [];
    const views = createViews({
      templates: { 'a.dve': 'A{{> b}}', 'b.dve': 'B', 'bad.dve': '{{#if}}' },
      onEvent: (e) => events.push(e),
    });
    expect(await views.render('a')).toBe('AB');
    expect(await views.render('a')).toBe('AB');
    await expect(views.render('bad')).rejects.toThrow();
    expect(events.map((e) => `${e.kind} ${e.metadata.view}`)).toEqual([
      'view:compiled a.dve',
      'view:compiled b.dve',
      'view:rendered a.dve',
      'view:rendered a.dve',
      'view:error bad.dve',
    ]);
    const err = events[4]!;
    expect(err.kind === 'view:error' && err.metadata).toMatchObject({ errorKind: 'syntax', line: 1, column: 6 });
  });
});
