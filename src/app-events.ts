/**
 * rove/events: `app.on(…)`. Loading this module gives every app its event bus on first use, so an
 * app that never listens carries no event code (the core only checks whether a bus is there).
 * The server adapters, rove/request-events, rove/logger and rove/otel load it themselves.
 *
 * @example
 * import 'rove/events';
 * app.on('server:listening', (e) => console.log(e.metadata.url));
 * app.on('csrf:rejected', (e) => console.warn('refused', e.metadata));
 */
import { App } from './app.ts';
import { EventBus, type EventKind, type Listener } from './events.ts';

export { EventBus };

/**
 * The app's event bus, made on first use. Features that watch listeners (the worker pool, views)
 * are attached to it then.
 *
 * @example
 * eventsOf(app).emit('server:listening', { runtime: 'node', hostname, port, url });
 */
export function eventsOf(app: App<any>): EventBus {
  let bus = app.events;
  if (bus === undefined) {
    bus = new EventBus();
    app.events = bus;
    app.settings.workers?.attach(bus);
    app.settings.views?.attach?.(bus);
  }
  return bus;
}

function on(this: App<any>, a: EventKind | Listener, b?: Listener<any>): () => void {
  const bus = eventsOf(this);
  return typeof a === 'function' ? bus.on(a) : bus.on(a, b!);
}
Object.defineProperty(App.prototype, 'on', { configurable: true, writable: true, value: on });
