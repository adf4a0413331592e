/**
 * One row per feature of the template language (docs/views.md): the view(s), the data, the exact output.
 * Shared by the vitest suite and by runtime-check.ts, which renders the same
 * table under `node --disallow-code-generation-from-strings`, Deno and Bun.
 */
import { escapeHtml, safe } from '../../src/views/index.ts';

export interface Case {
  name: string;
  /** The view rendered, as `main.dve`. */
  view: string;
  /** Other views it includes. */
  others?: Record<string, string>;
  /** Data, or a function making it (for one-shot iterables). */
  data?: unknown;
  /** Filters the views are made with (createViews({ filters })), and their locale. */
  filters?: Record<string, (value: unknown, ...args: any[]) => unknown>;
  locale?: string;
  out: string;
}

/** Registered filters of the filter cases: plain functions, one returning trusted HTML. */
const FILTERS = {
  currency: (v: unknown, code: unknown) => new Intl.NumberFormat('en-US', { style: 'currency', currency: String(code) }).format(Number(v)),
  shout: (v: unknown) => `${String(v)}!`,
  upper: (v: unknown) => `[${String(v)}]`,
  bold: (v: unknown) => safe(`<b>${escapeHtml(String(v))}</b>`),
  lookalike: () => ({ html: '<i>x</i>', toString: () => '<i>x</i>' }),
};

function* numbers() {
  yield 1;
  yield 2;
  yield 3;
}

export const cases: Case[] = [
  // ---- text and output
  { name: 'text outside tags is copied exactly', view: 'a < b & "c" \n\t  }} {x} }', out: 'a < b & "c" \n\t  }} {x} }' },
  { name: 'an empty view renders nothing', view: '', out: '' },
  { name: '{{ expr }} inserts an escaped value', view: 'Hi {{ name }}!', data: { name: '<b>&"\'' }, out: 'Hi &lt;b&gt;&amp;&quot;&#39;!' },
  { name: 'null and undefined print nothing', view: '[{{ a }}][{{ b }}][{{ missing }}]', data: { a: null, b: undefined }, out: '[][][]' },
  {
    name: 'other values print with String(value)',
    view: '{{ n }} {{ f }} {{ t }} {{ z }} {{ arr }} {{ big }}',
    data: { n: 42, f: 2.5, t: true, z: 0, arr: [1, 2, '<'], big: 10n },
    out: '42 2.5 true 0 1,2,&lt; 10',
  },
  { name: '{{{ expr }}} inserts without escaping', view: '{{{ html }}}|{{{ none }}}', data: { html: '<em>hi</em>' }, out: '<em>hi</em>|' },
  { name: 'tags may span lines', view: 'x{{\n  a\n  +\n  b\n}}y', data: { a: 1, b: 2 }, out: 'x3y' },
  { name: 'whitespace inside tags is optional', view: '{{a}}{{ a }}{{   a   }}', data: { a: 'x' }, out: 'xxx' },

  // ---- comments
  { name: '{{! text }} is a comment', view: 'a{{! ignore me }}b', out: 'ab' },
  { name: '{{!-- text --}} may contain }}', view: 'a{{!-- {{ x }} and }} --}}b', out: 'ab' },
  { name: 'text around a comment joins up', view: 'a {{! c }} b', out: 'a  b' },

  // ---- if
  { name: '{{#if}} renders its body when truthy', view: '{{#if ok}}yes{{/if}}', data: { ok: 1 }, out: 'yes' },
  { name: '{{#if}} renders nothing when falsy', view: '[{{#if ok}}yes{{/if}}]', data: { ok: '' }, out: '[]' },
  { name: '{{else}} renders when falsy', view: '{{#if ok}}yes{{else}}no{{/if}}', data: { ok: 0 }, out: 'no' },
  { name: '{{else if}} chains', view: '{{#if n == 1}}one{{else if n == 2}}two{{else if n == 3}}three{{else}}many{{/if}}', data: { n: 3 }, out: 'three' },
  { name: '{{else if}} falls through to {{else}}', view: '{{#if n == 1}}one{{else if n == 2}}two{{else}}many{{/if}}', data: { n: 9 }, out: 'many' },
  {
    name: 'truthiness is JavaScript truthiness',
    view: '{{#if a}}a{{/if}}{{#if b}}b{{/if}}{{#if c}}c{{/if}}{{#if d}}d{{/if}}{{#if e}}e{{/if}}{{#if f}}f{{/if}}',
    data: { a: [], b: {}, c: 'x', d: 0, e: NaN, f: null },
    out: 'abc',
  },
  { name: 'ifs nest', view: '{{#if a}}A{{#if b}}B{{else}}b{{/if}}{{/if}}', data: { a: true, b: false }, out: 'Ab' },
  { name: 'a constant condition still works', view: '{{#if true}}t{{/if}}{{#if 0}}z{{else}}e{{/if}}', out: 'te' },

  // ---- each
  { name: '{{#each}} loops over an array as `item` by default', view: '{{#each xs}}<{{ item }}>{{/each}}', data: { xs: ['a', 'b'] }, out: '<a><b>' },
  { name: '{{#each xs as x}} names the element', view: '{{#each xs as x}}{{ x }};{{/each}}', data: { xs: [1, 2, 3] }, out: '1;2;3;' },
  {
    name: '@index @first @last @length',
    view: '{{#each xs as x}}{{ @index }}/{{ @length }}{{#if @first}}F{{/if}}{{#if @last}}L{{/if}} {{/each}}',
    data: { xs: ['a', 'b', 'c'] },
    out: '0/3F 1/3 2/3L ',
  },
  { name: 'a one-element loop is first and last', view: '{{#each xs}}{{ @first }}{{ @last }}{{/each}}', data: { xs: [0] }, out: 'truetrue' },
  { name: 'loops over a Set', view: '{{#each s}}{{ item }}{{/each}}', data: { s: new Set(['x', 'y']) }, out: 'xy' },
  {
    name: 'loops over a Map as [key, value] entries',
    view: '{{#each m as e}}{{ e[0] }}={{ e[1] }} {{/each}}',
    data: {
      m: new Map([
        ['a', 1],
        ['b', 2],
      ]),
    },
    out: 'a=1 b=2 ',
  },
  { name: 'loops over another iterable object', view: '{{#each g as n}}{{ n }}{{ @length }} {{/each}}', data: () => ({ g: numbers() }), out: '13 23 33 ' },
  { name: '{{else}} renders for an empty array', view: '{{#each xs}}x{{else}}empty{{/each}}', data: { xs: [] }, out: 'empty' },
  {
    name: '{{else}} renders for null, a missing value, a string, a number, a plain object',
    view: '{{#each a}}x{{else}}1{{/each}}{{#each b}}x{{else}}2{{/each}}{{#each c}}x{{else}}3{{/each}}{{#each d}}x{{else}}4{{/each}}{{#each e}}x{{else}}5{{/each}}',
    data: { a: null, c: 'str', d: 5, e: { k: 1 } },
    out: '12345',
  },
  { name: 'a loop sees the enclosing scope', view: '{{#each xs}}{{ sep }}{{ item }}{{/each}}', data: { xs: [1, 2], sep: '-' }, out: '-1-2' },
  {
    name: 'nested loops shadow @ values; the outer element stays reachable',
    view: '{{#each rows as row}}[{{#each row.cells as cell}}{{ row.id }}.{{ @index }}:{{ cell }}{{#if !@last}},{{/if}}{{/each}}]{{ @index }}{{/each}}',
    data: {
      rows: [
        { id: 'a', cells: [1, 2] },
        { id: 'b', cells: [3] },
      ],
    },
    out: '[a.0:1,a.1:2]0[b.0:3]1',
  },
  {
    name: 'an inner loop variable shadows an outer one of the same name',
    view: '{{#each xs as x}}{{#each x as x}}{{ x }}{{/each}}|{{/each}}',
    data: { xs: [[1, 2], [3]] },
    out: '12|3|',
  },
  { name: '@ values outside a loop are empty', view: '[{{ @index }}{{ @first }}]', out: '[]' },
  { name: 'sparse and holey arrays give undefined elements', view: '{{#each xs}}[{{ item }}]{{/each}}', data: { xs: [1, undefined, 3] }, out: '[1][][3]' }, // eslint-disable-line no-sparse-arrays

  // ---- include
  { name: '{{> name}} includes another view with the current scope', view: 'A{{> part}}B', others: { 'part.dve': '({{ x }})' }, data: { x: 1 }, out: 'A(1)B' },
  { name: 'an include name may carry the extension', view: '{{> part.dve}}', others: { 'part.dve': 'P' }, out: 'P' },
  {
    name: 'include names are paths inside the views directory',
    view: '{{> users/card}}|{{> "users/card"}}',
    others: { 'users/card.dve': 'card' },
    out: 'card|card',
  },
  {
    name: 'an include inside a loop sees the loop scope',
    view: '{{#each xs as x}}{{> part}}{{/each}}',
    others: { 'part.dve': '{{ x }}{{ @index }}{{#if @last}}!{{/if}} ' },
    data: { xs: ['a', 'b'] },
    out: 'a0 b1! ',
  },
  {
    name: '{{> name key=expr}} adds bindings for that include',
    view: '{{> card title="Hi" n=1+1}}|{{ title }}',
    others: { 'card.dve': '{{ title }}:{{ n }}:{{ other }}' },
    data: { title: 'outer', other: 'o' },
    out: 'Hi:2:o|outer',
  },
  {
    name: 'an include argument shadows a loop variable of the caller',
    view: '{{#each xs as x}}{{> p x=x * 10}}{{/each}}',
    others: { 'p.dve': '{{ x }} ' },
    data: { xs: [1, 2] },
    out: '10 20 ',
  },
  {
    name: 'an included view may loop and include',
    view: '{{> list}}',
    others: { 'list.dve': '{{#each xs}}{{> item}}{{/each}}', 'item.dve': '<{{ item }}>' },
    data: { xs: [1, 2] },
    out: '<1><2>',
  },
  {
    name: 'a view may include itself under a condition',
    view: '{{> tree node=root}}',
    others: { 'tree.dve': '{{ node.name }}{{#if node.kids}}({{#each node.kids as kid}}{{> tree node=kid}}{{/each}}){{/if}}' },
    data: { root: { name: 'a', kids: [{ name: 'b' }, { name: 'c', kids: [{ name: 'd' }] }] } },
    out: 'a(bc(d))',
  },

  // ---- layouts
  {
    name: '{{< layout}} renders the layout with the given blocks',
    view: '{{< base}}{{#block title}}T{{/block}}{{#block body}}<p>{{ msg }}</p>{{/block}}{{/}}',
    others: { 'base.dve': '<title>{{#slot title}}default{{/slot}}</title><main>{{#slot body}}{{/slot}}</main>' },
    data: { msg: 'hi' },
    out: '<title>T</title><main><p>hi</p></main>',
  },
  {
    name: 'a slot keeps its default when no block fills it',
    view: '{{< base}}{{#block body}}B{{/block}}{{/}}',
    others: { 'base.dve': '[{{#slot title}}Default {{ site }}{{/slot}}][{{#slot body}}{{/slot}}]' },
    data: { site: 'S' },
    out: '[Default S][B]',
  },
  {
    name: 'whitespace between blocks is ignored; text around the call is kept',
    view: 'before\n{{< base}}\n  {{! note }}\n  {{#block a}}A{{/block}}\n{{/}}\nafter',
    others: { 'base.dve': '<{{#slot a}}{{/slot}}>' },
    out: 'before\n<A>\nafter',
  },
  {
    name: 'a block is rendered in the scope it was written in',
    view: '{{#each xs as x}}{{< wrap}}{{#block inner}}{{ x }}@{{ @index }}{{/block}}{{/}}{{/each}}',
    others: { 'wrap.dve': '{{#each ys as x}}{{/each}}[{{#each ys as y}}{{#slot inner}}{{/slot}}{{/each}}]' },
    data: { xs: ['a', 'b'], ys: [0] },
    out: '[a@0][b@1]',
  },
  {
    name: 'a layout sees the caller scope and its own arguments',
    view: '{{< base heading="H"}}{{#block body}}b{{/block}}{{/}}',
    others: { 'base.dve': '{{ heading }}/{{ user }}:{{#slot body}}{{/slot}}' },
    data: { user: 'u' },
    out: 'H/u:b',
  },
  {
    name: 'layouts nest: a layout may itself use a layout and pass slots on',
    view: '{{< section}}{{#block title}}Page{{/block}}{{/}}',
    others: {
      'section.dve': '{{< base}}{{#block head}}<h1>{{#slot title}}untitled{{/slot}}</h1>{{/block}}{{/}}',
      'base.dve': '<html>{{#slot head}}{{/slot}}</html>',
    },
    out: '<html><h1>Page</h1></html>',
  },
  {
    name: 'a slot may be defined by a view the layout includes',
    view: '{{< base}}{{#block nav}}N{{/block}}{{/}}',
    others: { 'base.dve': '<{{> header}}>', 'header.dve': '[{{#slot nav}}{{/slot}}]' },
    out: '<[N]>',
  },
  { name: 'a view rendered directly shows its slot defaults', view: '{{#slot x}}dflt{{/slot}}', out: 'dflt' },

  // ---- whitespace control
  { name: '~ trims whitespace on the inner side of a tag', view: 'a  \n {{~ x ~}} \n\t b', data: { x: 'X' }, out: 'aXb' },
  {
    name: '~ works on block tags, else and comments',
    view: '<ul>\n  {{~#each xs~}}\n    <li>{{ item }}</li>\n  {{~else~}}\n    none\n  {{~/each~}}\n</ul> {{~! c ~}} .',
    data: { xs: [1, 2] },
    out: '<ul><li>1</li><li>2</li></ul>.',
  },
  {
    name: '~ works on raw output, includes, comments and layouts',
    view: 'a {{{~ h ~}}} b {{~> p ~}} c {{~!-- x --~}} d',
    others: { 'p.dve': 'P' },
    data: { h: '<i>' },
    out: 'a<i>bPcd',
  },
  { name: 'without ~ whitespace is kept', view: ' {{ x }} ', data: { x: 1 }, out: ' 1 ' },

  // ---- expressions: literals and names
  { name: 'number literals', view: '{{ 1 }} {{ 2.5 }} {{ 1e3 }} {{ 1.5e-2 }} {{ 0 }}', out: '1 2.5 1000 0.015 0' },
  {
    name: 'string literals with escapes',
    view: `{{ 'a\\'b' }}|{{ "c\\"d" }}|{{{ 'x\\ny\\tz\\r' }}}|{{ '\\\\' }}|{{ "it's" }}|{{ '}}' }}`,
    out: 'a&#39;b|c&quot;d|x\ny\tz\r|\\|it&#39;s|}}',
  },
  { name: 'true false null undefined', view: '{{ true }} {{ false }} [{{ null }}] [{{ undefined }}]', out: 'true false [] []' },
  { name: 'names use letters, digits, _ and $', view: '{{ _a1 }} {{ $b }} {{ été }}', data: { _a1: 'x', $b: 'y', été: 'z' }, out: 'x y z' },

  // ---- member access
  { name: 'a.b.c reads nested properties', view: '{{ user.address.city }}', data: { user: { address: { city: 'Oslo' } } }, out: 'Oslo' },
  { name: 'a.b and a?.b are null-safe', view: '[{{ a.b.c.d }}][{{ a?.b?.c }}][{{ n.x }}][{{ u?.x }}]', data: { a: {}, n: null }, out: '[][][][]' },
  {
    name: 'index access with numbers, strings and names',
    view: "{{ xs[0] }} {{ xs[i] }} {{ o['k-1'] }} {{ o[key] }} {{ xs[xs.length - 1] }} {{ m[0][1] }}",
    data: { xs: ['a', 'b', 'c'], i: 1, o: { 'k-1': 'K', z: 'Z' }, key: 'z', m: [[0, 'M']] },
    out: 'a b K Z c M',
  },
  { name: 'optional index access and dot-number access', view: '[{{ none?.[0] }}]{{ xs?.[1] }}{{ xs.0 }}', data: { xs: ['p', 'q'] }, out: '[]qp' },
  { name: 'an index of a missing object is undefined', view: '[{{ none[0] }}][{{ xs[none] }}][{{ xs[obj] }}]', data: { xs: [1], obj: {} }, out: '[][][]' },
  {
    name: 'arrays have elements and length, strings have length and characters',
    view: '{{ xs.length }} {{ s.length }} {{ s[1] }} {{ s.0 }}',
    data: { xs: [1, 2, 3], s: 'héllo' },
    out: '3 5 é h',
  },

  // ---- operators
  {
    name: 'arithmetic and precedence',
    view: '{{ 1 + 2 * 3 }} {{ (1 + 2) * 3 }} {{ 7 % 4 }} {{ 10 / 4 }} {{ 2 - 3 - 4 }} {{ a * b + c }}',
    data: { a: 2, b: 3, c: 4 },
    out: '7 9 3 2.5 -5 10',
  },
  {
    name: '+ concatenates strings as in JavaScript',
    view: "{{ 'a' + 1 + 2 }} {{ 1 + 2 + 'a' }} {{ first + ' ' + last }}",
    data: { first: 'Ada', last: 'L' },
    out: 'a12 3a Ada L',
  },
  { name: 'unary ! - +', view: '{{ !a }} {{ !!a }} {{ -n }} {{ +s }} {{ - -n }} {{ !0 }}', data: { a: 'x', n: 5, s: '7' }, out: 'false true -5 7 5 true' },
  {
    name: 'comparisons',
    view: '{{ a < b }} {{ a > b }} {{ a <= 1 }} {{ b >= 3 }} {{ s < "b" }}',
    data: { a: 1, b: 2, s: 'a' },
    out: 'true false true false true',
  },
  {
    name: 'equality: == != === !==',
    view: "{{ n == '1' }} {{ n === '1' }} {{ n != 1 }} {{ n !== 1 }} {{ u == null }} {{ u === null }}",
    data: { n: 1 },
    out: 'true false false false true false',
  },
  {
    name: '&& and || return an operand and short-circuit',
    view: "{{ a && b }} {{ z && b }} {{ z || 'dflt' }} {{ a || b }}",
    data: { a: 'A', b: 'B', z: 0 },
    out: 'B 0 dflt A',
  },
  {
    name: '?? only replaces null and undefined',
    view: "{{ u ?? 'x' }} {{ z ?? 'x' }} {{ e ?? 'x' }} {{ n ?? 'x' }}",
    data: { z: 0, e: '', n: null },
    out: 'x 0  x',
  },
  {
    name: 'the conditional operator, nested to the right',
    view: "{{ a ? 'yes' : 'no' }} {{ n > 5 ? 'big' : n > 2 ? 'mid' : 'small' }}",
    data: { a: 1, n: 3 },
    out: 'yes mid',
  },
  {
    name: 'precedence from the loosest: ?: ?? || && == < + * unary member',
    view: "{{ a || b && c }} {{ 1 + 2 == 3 }} {{ 1 < 2 == true }} {{ u ?? a || 'x' }} {{ -xs.length }} {{ !o.f ? 1 : 2 }}",
    data: { a: 0, b: 1, c: 2, xs: [1, 2], o: { f: 0 } },
    out: '2 true true x -2 1',
  },

  // ---- own properties only
  {
    name: 'inherited members resolve to nothing',
    view: '[{{ o.constructor }}][{{ o.__proto__ }}][{{ o.toString }}][{{ o.hasOwnProperty }}][{{ f.prototype }}][{{ s.toUpperCase }}][{{ xs.map }}][{{ constructor }}]',
    data: { o: {}, f: { prototype: undefined }, s: 'x', xs: [] },
    out: '[][][][][][][][]',
  },
  {
    name: 'prototype chains through index access resolve to nothing',
    view: "[{{ o['constructor'] }}][{{ o[k] }}][{{ xs['constructor']['constructor'] }}][{{ o.constructor.constructor }}]",
    data: { o: {}, k: '__proto__', xs: [] },
    out: '[][][][]',
  },
  {
    name: 'own properties named like built-ins are data',
    view: '{{ o.constructor }} {{ o.toString }}',
    data: { o: { constructor: 'C', toString: 'T' } },
    out: 'C T',
  },

  // ---- filters
  {
    name: 'filters chain left to right, with arguments that are expressions',
    view: "{{ user.name | default('anonymous') | upper }} {{ tags | join(sep + ' ') }} {{ tags | length }} {{ '  x ' | trim }}{{ s | lower }}",
    data: { user: {}, tags: ['a', 'b'], sep: ';', s: 'ABC' },
    out: 'ANONYMOUS a; b 2 xabc',
  },
  {
    name: "a filter's result is escaped by {{ }} and not by {{{ }}}; | inside strings is text",
    view: "{{ s | default('') }}|{{{ s | default('') }}}|{{ 'a|b' }}|{{ a || b }}|{{ (s | length) > 2 ? 'long' : 'short' }}",
    data: { s: '<i>', a: 0, b: 'B' },
    out: '&lt;i&gt;|<i>|a|b|B|long',
  },
  {
    name: 'json is safe inside a script: no </script>, no <!--, no U+2028',
    view: '<script>var d = {{{ d | json }}};</script>',
    data: { d: { s: '</script><!-- \u2028 & x' } },
    out: '<script>var d = {"s":"\\u003c/script\\u003e\\u003c!-- \\u2028 \\u0026 x"};</script>',
  },
  {
    name: 'date and number format through Intl, in the locale the data names or the views have',
    view: "{{ t | date('long') }} {{ n | number(2) }} {{ big | number }}|{{ 'nope' | date }}{{ 'x' | number }}",
    data: { t: Date.UTC(2026, 11, 6, 12), n: 1.23456, big: 1234567.5, locale: 'de-DE' },
    locale: 'en-GB',
    out: '6. Dezember 2026 1,23 1.234.567,5|',
  },
  {
    name: 'registered filters, one replacing a built-in, one returning safe() HTML; a look-alike of safe() is escaped',
    view: "{{ price | currency('EUR') }} {{ name | shout }} {{ name | upper }} {{ name | bold }} {{ name | lookalike }}",
    data: { price: 12.5, name: 'Ada & co' },
    filters: FILTERS,
    out: '€12.50 Ada &amp; co! [Ada &amp; co] <b>Ada &amp; co</b> &lt;i&gt;x&lt;/i&gt;',
  },
];

/** Renders the whole table through any createViews, returning [name, output or error]. */
export async function renderCases(
  createViews: (o: { templates: Record<string, string>; filters?: Case['filters']; locale?: string }) => { render(n: string, d?: unknown): Promise<string> },
): Promise<[string, string][]> {
  const results: [string, string][] = [];
  for (const c of cases) {
    const views = createViews({ templates: { ...c.others, 'main.dve': c.view }, filters: c.filters, locale: c.locale });
    const data = typeof c.data === 'function' ? (c.data as () => unknown)() : c.data;
    try {
      results.push([c.name, await views.render('main', data)]);
    } catch (e) {
      results.push([c.name, `ERROR ${(e as Error).message}`]);
    }
  }
  return results;
}
