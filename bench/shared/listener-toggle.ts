// The listener variant of the bench apps: one empty event listener (the cost of
// observability) that the runner switches off and on between alternating rounds
// in this one process (POST /__bench/listener/off|on; bench/lib/listener-cost.ts),
// so the comparison does not depend on which of two processes ran faster.
import type { App } from '../../src/index.ts';
// The listener hears every kind, request events included.

export function installListenerToggle(app: App<any>): void {
  let off: (() => void) | null = app.on(() => {});
  app.post('/__bench/listener/:state', (c) => {
    const on = c.req.param('state') === 'on';
    if (on && off === null) off = app.on(() => {});
    if (!on && off !== null) {
      off();
      off = null;
    }
    return c.text(off === null ? 'off' : 'on');
  });
}
