// Request events live in rove/request-events. Without it (this file never loads it),
// asking for one says so at once, and the app does no request-event work.
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../src/app-events.ts';
import { App } from '../../src/index.ts';
import '../../src/testing.ts';

describe('request events without rove/request-events', () => {
  it('a request listener is refused with the import to add', () => {
    const app = new App();
    for (const kind of ['request:complete', 'request:error', 'body:rejected'] as const) {
      expect(() => app.on(kind, () => {})).toThrow(`${kind} needs import 'rove/request-events'`);
    }
  });

  it('a listener for every event hears the others, and requests run unobserved', async () => {
    const app = new App().get('/', (c) => c.text('ok'));
    const kinds: string[] = [];
    app.on((e) => void kinds.push(e.kind));
    expect(eventsOf(app).observing).toBe(false);
    expect(await (await app.request('/')).text()).toBe('ok');
    eventsOf(app).emit('server:shutdown', { runtime: 'test' });
    expect(kinds).toEqual(['server:shutdown']);
  });
});
