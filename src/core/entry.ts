/**
 * What one entry point (app.fetch, or an adapter's bound handler) gives the requests it
 * receives: made once, by the App's constructor for app.fetch and by each `bind`, so a request
 * reads it and builds nothing.
 */

import type { ProxyRule, ServerBinding } from './app-types.ts';
import type { ContextConfig } from './context.ts';
import type { EventBus } from './events.ts';

export interface Entry extends ContextConfig {
  finish: ServerBinding['finish'];
}

/** The app-wide settings an entry copies. */
type EntrySettings = Pick<ContextConfig, 'bodyLimit' | 'views' | 'dev' | 'threads'>;

/** An entry for `binding`: the adapter's hooks, with the app's trustProxy rule on top of its client address. */
export function makeEntry(settings: EntrySettings, events: EventBus, proxies: ProxyRule | undefined, binding: ServerBinding): Entry {
  const address = binding.address;
  return {
    bodyLimit: settings.bodyLimit,
    views: settings.views,
    dev: settings.dev,
    threads: settings.threads,
    events,
    respond: binding.respond,
    header: binding.header,
    finish: binding.finish,
    clientIp: (request, info) => {
      const socket = address?.(request, info);
      return proxies === undefined ? socket : proxies.clientIp(socket, request);
    },
    protocol: (request, info) => (proxies === undefined ? undefined : proxies.protocol(address?.(request, info), request)),
  };
}
