import { describe, expect, it } from 'vitest';
import { App, type RoveEvent } from '../../src/index.ts';
import { createViews } from '../../src/views/index.ts';

const req = (path: string) => new Request(`http://localhost${path}`);

describe('events > views', () => {
  it('view:compiled, view:rendered and view:error reach app listeners', async () => {
    const app = new App({ views: createViews({ templates: { 'hi.dve': 'Hi {{ name }}', 'bad.dve': '{{#each items}}{{ item.x.y.z }}{{/each}}' } }) });
    app.get('/hi', (c) => c.render('hi', { name: 'Ada' }));
    app.get('/missing', (c) => c.render('nope'));
    const seen: RoveEvent[] = [];
    app.on((e) => {
      if (e.kind.startsWith('view:')) seen.push(e);
    });
    expect(await (await app.fetch(req('/hi'))).text()).toBe('Hi Ada');
    expect((await app.fetch(req('/missing'))).status).toBe(500);
    expect(seen.map((e) => e.kind)).toEqual(['view:compiled', 'view:rendered', 'view:error']);
    expect(seen[1].metadata).toMatchObject({ view: 'hi.dve', size: 6, stream: false });
    expect(seen[2].metadata).toMatchObject({ errorKind: 'not-found' });
  });

  it('views time nothing once the last view listener is gone', async () => {
    const views = createViews({ templates: { 'hi.dve': 'Hi' } });
    const app = new App({ views }).get('/', (c) => c.render('hi'));
    const seen: string[] = [];
    const off = app.on('view:rendered', (e) => void seen.push(e.metadata.view));
    await app.fetch(req('/'));
    off();
    await app.fetch(req('/'));
    expect(seen).toEqual(['hi.dve']);
    expect((views as unknown as { onEvent: unknown }).onEvent).toBeUndefined();
  });
});
