import { describe, expect, it } from 'vitest';
import { App } from '../../src/index.ts';

declare module '../../src/core/event-map.ts' {
  interface EventMap {
    'test:noticed': { what: string };
  }
}

describe('c.emit', () => {
  it('reaches app.on listeners with typed metadata, and builds lazy metadata only when heard', async () => {
    const app = new App();
    let built = 0;
    app.get('/', (c) => {
      c.emit('test:noticed', () => {
        built++;
        return { what: 'lazy' };
      });
      c.emit('test:noticed', { what: 'eager' });
      return c.text('ok');
    });
    await app.fetch(new Request('http://x/'));
    expect(built).toBe(0);

    const seen: string[] = [];
    app.on('test:noticed', (e) => {
      seen.push(e.metadata.what);
    });
    await app.fetch(new Request('http://x/'));
    expect(built).toBe(1);
    expect(seen).toEqual(['lazy', 'eager']);
  });

  it('a listener that throws does not break the request', async () => {
    const app = new App();
    app.on('test:noticed', () => {
      throw new Error('listener');
    });
    app.get('/', (c) => {
      c.emit('test:noticed', { what: 'x' });
      return c.text('ok');
    });
    const res = await app.fetch(new Request('http://x/'));
    expect(await res.text()).toBe('ok');
  });
});
