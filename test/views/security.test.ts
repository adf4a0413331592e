import { describe, expect, test } from 'vitest';
import { createViews, escapeHtml, ViewError } from '../../src/views/index.ts';

const render = (view: string, data?: unknown, others: Record<string, string> = {}) =>
  createViews({ templates: { ...others, 'main.dve': view } }).renderSync('main', data);

describe('views > security', () => {
  test('escapes & < > " \' and nothing else', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
    expect(escapeHtml('plain フレームワーク 😀')).toBe('plain フレームワーク 😀');
  });

  test('a <script> payload is inert in text and attributes', () => {
    const payload = `"><script>alert('x')</script>`;
    expect(render('<p title="{{ p }}">{{ p }}</p>', { p: payload })).toBe(
      '<p title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</p>',
    );
  });

  test('values that stringify to markup are escaped too', () => {
    expect(render('{{ o }}', { o: { toString: () => '<b>' } })).toBe('&lt;b&gt;');
    expect(render('{{ xs }}', { xs: ['<i>', '&'] })).toBe('&lt;i&gt;,&amp;');
  });

  test('Japanese and other non-ASCII text passes through unchanged', () => {
    expect(render('{{ a }}<{{ b }}>', { a: 'フレームワークのベンチマーク', b: 'Ünïcødé 😀' })).toBe('フレームワークのベンチマーク<Ünïcødé 😀>');
  });

  test('the prototype chain is out of reach', () => {
    const attempts = [
      '{{ constructor }}',
      '{{ __proto__ }}',
      '{{ toString }}',
      '{{ valueOf }}',
      '{{ o.constructor }}',
      '{{ o.__proto__ }}',
      '{{ o.__proto__.polluted }}',
      '{{ o.constructor.prototype }}',
      "{{ o['constructor']['constructor'] }}",
      '{{ o[k1][k2] }}',
      '{{ s.constructor }}',
      '{{ s.big }}',
      '{{ n.toFixed }}',
      '{{ xs.constructor.name }}',
      '{{ xs.push }}',
      '{{ fn.call }}',
      '{{ fn.bind }}',
      '{{ o?.constructor?.name }}',
      '{{ o.hasOwnProperty }}',
      '{{ o.__defineGetter__ }}',
      '{{ o.isPrototypeOf }}',
      '{{ xs[0].constructor }}',
      '{{ m.size }}',
      '{{ m.get }}',
    ];
    const data = { o: {}, k1: 'constructor', k2: 'constructor', s: 'str', n: 1, xs: [{}], fn() {}, m: new Map([['a', 1]]) };
    for (const view of attempts) expect(render(`[${view}]`, data), view).toBe('[]');
  });

  test('a JSON-parsed own __proto__ key is plain data, and rendering pollutes nothing', () => {
    const data = JSON.parse('{"o": {"__proto__": {"polluted": "yes"}}}');
    expect(render('{{ o.__proto__.polluted }}', data)).toBe('yes');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('getters on own properties run; inherited getters do not', () => {
    class Box {
      get secret() {
        return 'inherited';
      }
    }
    const own = Object.defineProperty({}, 'v', { get: () => 'own', enumerable: true });
    expect(render('[{{ b.secret }}][{{ o.v }}]', { b: new Box(), o: own })).toBe('[][own]');
  });

  test('expressions have no calls, no assignment and no new', () => {
    for (const view of [
      '{{ f() }}',
      '{{ o.m() }}',
      '{{ a = 1 }}',
      '{{ a += 1 }}',
      '{{ a++ }}',
      '{{ --a }}',
      '{{ new Date }}',
      '{{ (x) => x }}',
      '{{ x => 1 }}',
      '{{ `t` }}',
      '{{ /re/ }}',
    ]) {
      expect(() => render(view, { f: () => 'called', o: { m: () => 'called' } }), view).toThrow(ViewError);
    }
  });

  test('include and layout names cannot leave the views directory', () => {
    for (const view of [
      '{{> ../secret}}',
      '{{> /etc/passwd}}',
      '{{> a/../../secret}}',
      '{{> ..\\secret}}',
      '{{> "../secret"}}',
      '{{< ../layout}}{{/}}',
      '{{> C:/x}}',
    ]) {
      let err: unknown;
      try {
        render(view, {}, { 'secret.dve': 'S' });
      } catch (e) {
        err = e;
      }
      expect(err, view).toBeInstanceOf(ViewError);
      expect((err as ViewError).kind, view).toBe('syntax');
      expect((err as ViewError).line, view).toBe(1);
    }
    const views = createViews({ templates: { 'a.dve': 'A' } });
    expect(() => views.renderSync('../a')).toThrow(expect.objectContaining({ kind: 'not-found' }));
    expect(() => views.renderSync('/a')).toThrow(expect.objectContaining({ kind: 'not-found' }));
  });

  test('a name not in the set of known views is an error', () => {
    expect(() => render('{{> nope}}')).toThrow(expect.objectContaining({ kind: 'not-found', line: 1, column: 1 }));
  });
});

describe('views > functions in data', () => {
  test('print nothing rather than their source', async () => {
    const views = createViews({ templates: { 'f.dve': '[{{ fn }}][{{{ fn }}}]' } });
    expect(
      await views.render('f', {
        fn: function secret() {
          return 'x';
        },
      }),
    ).toBe('[][]');
  });
});
