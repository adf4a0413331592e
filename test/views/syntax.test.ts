import { describe, expect, test } from 'vitest';
import { createViews } from '../../src/views/index.ts';
import { cases } from './cases.ts';

describe('views > syntax', () => {
  for (const c of cases) {
    test(c.name, async () => {
      const views = createViews({ templates: { ...c.others, 'main.dve': c.view }, filters: c.filters, locale: c.locale });
      const data = typeof c.data === 'function' ? (c.data as () => unknown)() : c.data;
      expect(await views.render('main', data)).toBe(c.out);
      // The stream carries the same output as UTF-8.
      const again = typeof c.data === 'function' ? (c.data as () => unknown)() : c.data;
      expect(await new Response(views.stream('main', again)).text()).toBe(c.out);
    });
  }
});
