// Runs inside workerd (vitest.workers.config.ts): the template language's whole case table,
// filters included (their Intl formats too), renders as on Node, Deno and Bun
// (test/views/fs.test.ts runs the same table there), with no code generated from strings.
import { expect, it } from 'vitest';
import { createViews } from '../../src/views/index.ts';
import { cases, renderCases } from '../views/cases.ts';

it('every case of the template language renders inside workerd as the table says', async () => {
  const results = await renderCases(createViews);
  expect(results).toEqual(cases.map((c) => [c.name, c.out]));
});
