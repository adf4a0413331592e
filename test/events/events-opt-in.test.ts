// The event bus lives in rove/events. This file never loads it (nor an adapter, nor
// rove/request-events): an app serves without it, carries no bus, and `app.on` says what to import.
import { describe, expect, it } from 'vitest';
import { App } from '../../src/index.ts';
import '../../src/testing.ts';

describe('events without rove/events', () => {
  it('app.on is refused with the import to add, and the app has no bus', () => {
    const app = new App();
    expect(() => app.on(() => {})).toThrow("app.on() needs import 'rove/events'");
    expect(() => app.on('server:listening', () => {})).toThrow("app.on() needs import 'rove/events'");
    expect(app.events).toBeUndefined();
  });

  it('c.emit with no bus does nothing, and requests are served', async () => {
    const app = new App().get('/', (c) => {
      c.emit('csrf:rejected', () => {
        throw new Error('metadata is never built without a bus');
      });
      return c.text('ok');
    });
    const res = await app.request('/');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
  });
});
