// Filters: `{{ value | name(arg, …) }}`, the built-in set and the app's own. The cases every
// runtime renders are in cases.ts; here the grammar's properties, the compile-time refusals and
// the escaping rules.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createViews, escapeHtml, precompile, SafeHtml, safe, ViewError } from '../../src/views/index.ts';

const render = (view: string, data?: unknown, filters?: Record<string, (v: unknown, ...a: any[]) => unknown>) =>
  createViews({ templates: { 'main.dve': view }, ...(filters ? { filters } : {}) }).renderSync('main', data);

function compileError(view: string, filters?: Record<string, (v: unknown) => unknown>): ViewError {
  try {
    render(view, {}, filters);
  } catch (error) {
    if (error instanceof ViewError) return error;
    throw error;
  }
  throw new Error(`${view} compiled`);
}

describe('views > filters > grammar', () => {
  it('a chain parses the same with and without whitespace around | , ( )', () => {
    const names = fc.constantFrom('upper', 'lower', 'trim', 'length', "default('d')", "join('-')");
    const space = fc.constantFrom('', ' ', '  ', '\t', '\n');
    fc.assert(
      fc.property(fc.array(names, { minLength: 1, maxLength: 6 }), fc.array(space, { minLength: 14, maxLength: 14 }), (chain, ws) => {
        const tight = `{{x|${chain.join('|')}}}`;
        const spaced = `{{${ws[0]}x${chain.map((f, i) => `${ws[(i % 6) + 1]}|${ws[(i % 6) + 7]}${f.replace('(', `${ws[13]}(`)}`).join('')}${ws[1]}}}`;
        const data = { x: [' a ', 'B'] };
        expect(render(spaced, data)).toBe(render(tight, data));
      }),
    );
  });

  it('| inside a string is text, not a filter', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '|', ' ', 'b', '(', ')', "'") }), (s) => {
        const literal = `'${s.replace(/'/g, "\\'")}'`;
        expect(render(`{{ ${literal} }}`)).toBe(escapeHtml(s));
        expect(render(`{{ ${literal} | length }}`)).toBe(String(s.length));
      }),
    );
  });

  it('binds looser than every operator; parentheses take a filtered value into an expression', () => {
    expect(render('{{ a + b | upper }}', { a: 'x', b: 'y' })).toBe('XY');
    expect(render('{{ c ? a : b | upper }}', { c: false, a: 'x', b: 'y' })).toBe('Y');
    expect(render('{{ (a | upper) + b }}', { a: 'x', b: 'y' })).toBe('Xy');
    expect(render('{{#if (xs | length) > 1 }}many{{/if}}', { xs: [1, 2] })).toBe('many');
    expect(render('{{#each xs | default(ys) as y }}{{ y }}{{/each}}', { ys: [1, 2] })).toBe('12');
  });
});

describe('views > filters > refused when the view is compiled', () => {
  it('an unknown filter, with the view, the line and the column of its name', () => {
    const e = compileError('line one\n  {{ x | nope }}');
    expect(e.kind).toBe('syntax');
    expect([e.view, e.line, e.column]).toEqual(['main.dve', 2, 10]);
    expect(e.message).toContain("unknown filter 'nope'");
  });

  it('names that would find something on a prototype: constructor, __proto__, toString, hasOwnProperty', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(compileError(`{{ x | ${name} }}`).message).toContain(`unknown filter '${name}'`);
    }
  });

  it('a filter whose name or arguments break the grammar, and chains past the nesting limit', () => {
    expect(compileError('{{ x | }}').message).toContain("expected a filter name after '|'");
    expect(compileError("{{ x | 'upper' }}").message).toContain("expected a filter name after '|'");
    expect(compileError('{{ x | upper( }}').message).toContain('expected an expression');
    expect(compileError('{{ x | join(a b) }}').message).toContain("expected ')'");
    expect(compileError('{{ x | upper() () }}').kind).toBe('syntax');
    const deep = compileError(`{{ x ${'| upper '.repeat(500)}}}`);
    expect(deep.kind).toBe('limit');
  });

  it('precompiled views (build:views) name any filter; createViews checks them when it loads them', () => {
    const compiled = JSON.parse(JSON.stringify(precompile({ 'a.dve': '{{ x | money }}' })));
    expect(() => createViews({ compiled }).renderSync('a', { x: 1 })).toThrow(/a\.dve:1:8: unknown filter 'money'/);
    expect(createViews({ compiled, filters: { money: (v) => `$${v}` } }).renderSync('a', { x: 1 })).toBe('$1');
  });

  it('an argument cannot reach a prototype: own properties only, as everywhere in views', () => {
    let seen: unknown[] = [];
    const spy = (_v: unknown, ...args: unknown[]) => {
      seen = args;
      return 'ok';
    };
    expect(render("{{ x | spy(o.constructor, o['__proto__'], xs.constructor) }}", { x: 1, o: {}, xs: [] }, { spy })).toBe('ok');
    expect(seen).toEqual([undefined, undefined, undefined]);
  });
});

describe('views > filters > registering', () => {
  it('refuses a name a view cannot write, and a value that is not a function', () => {
    expect(() => createViews({ filters: { 'a-b': () => 1 } })).toThrow(/not a name a view can write/);
    expect(() => createViews({ filters: { ok: 'nope' as never } })).toThrow(/is not a function/);
  });

  it('gets the arguments the view wrote, however many', () => {
    const seen = (v: unknown, ...args: unknown[]) => JSON.stringify([v, ...args]);
    expect(
      render("{{{ x | seen }}}|{{{ x | seen() }}}|{{{ x | seen(1) }}}|{{{ x | seen(1, 'b') }}}|{{{ x | seen(1, 'b', c, c + 1) }}}", { x: 0, c: 3 }, { seen }),
    ).toBe('[0]|[0]|[0,1]|[0,1,"b"]|[0,1,"b",3,4]');
  });

  it('a filter that throws fails the render with the tag, the view and the position; the error it threw is the cause', () => {
    const boom = new Error('boom');
    try {
      render(
        '\n{{ x | bad }}',
        { x: 1 },
        {
          bad: () => {
            throw boom;
          },
        },
      );
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ViewError);
      expect((e as ViewError).kind).toBe('render');
      expect((e as ViewError).message).toContain("main.dve:2:8: the filter 'bad' at line 2, column 8: the filter threw");
      expect((e as ViewError).cause).toBe(boom);
    }
  });
});

describe('views > filters > escaping', () => {
  const page = (v: unknown) => render('{{ x | f }}|{{{ x | f }}}', { x: 1 }, { f: () => v });

  it('what a filter returns is escaped by {{ }}, written as it is by {{{ }}}', () => {
    expect(page('<b>&')).toBe('&lt;b&gt;&amp;|<b>&');
  });

  it('only safe() makes trusted HTML; a look-alike, a copy of its fields or its prototype is not', () => {
    expect(page(safe('<b>ok</b>'))).toBe('<b>ok</b>|<b>ok</b>');
    expect(page({ html: '<b>x</b>', toString: () => '<b>x</b>' })).toBe('&lt;b&gt;x&lt;/b&gt;|<b>x</b>');
    expect(page({ ...safe('<b>x</b>') })).toBe('[object Object]|[object Object]');
    expect(() => page(Object.create(SafeHtml.prototype))).toThrow(ViewError);
    expect(SafeHtml.is(safe('x'))).toBe(true);
    expect(SafeHtml.is({ html: 'x' })).toBe(false);
  });

  it('json stays JSON and safe in a script for any value: no </script>, <!--, & or U+2028', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom('</script>', '<!--', '\u2028', '\u2029', '&', '<', ''), (value, nasty) => {
        const v = { value, nasty, s: `a${nasty}b` };
        const out = render('{{{ v | json }}}', { v });
        expect(out).not.toMatch(/<\/script|<!--|[\u2028\u2029&<>]/i);
        expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(v)));
      }),
    );
  });
});

describe('views > filters > built-ins', () => {
  it('default replaces undefined, null and the empty string; not 0 or false', () => {
    expect(
      render("{{ a | default('x') }}{{ b | default('x') }}{{ c | default('x') }}{{ d | default('x') }}{{ e | default('x') }}", {
        b: null,
        c: '',
        d: 0,
        e: false,
      }),
    ).toBe('xxx0false');
  });

  it('join and length on arrays, strings, Maps and Sets; other values pass or count 0', () => {
    expect(render("{{ xs | join }}|{{ xs | join('') }}|{{ s | join }}", { xs: [1, 'a'], s: 'str' })).toBe('1, a|1a|str');
    expect(
      render('{{ xs | length }}{{ s | length }}{{ m | length }}{{ o | length }}{{ n | length }}', {
        xs: [1],
        s: 'ab',
        m: new Set([1, 2, 3]),
        o: { a: 1 },
        n: null,
      }),
    ).toBe('12300');
  });

  it('date takes a style, a date and a time style, or options from the data; number digits or options', () => {
    const data = { t: Date.UTC(2026, 0, 2, 3, 4), opts: { year: 'numeric', timeZone: 'UTC' }, money: { style: 'currency', currency: 'JPY' }, locale: 'en-US' };
    expect(render("{{ t | date('short') }}|{{ t | date(opts) }}|{{ 1234.5 | number(0) }}|{{ 1234.5 | number(money) }}", data)).toBe('1/2/26|2026|1,235|¥1,235');
    expect(createViews({ templates: { a: '{{ 0.5 | number }}' }, locale: 'fr-FR' }).renderSync('a')).toBe('0,5');
  });
});
