// The answers rove/node gives a WebSocket route it cannot upgrade, apart from websocket.ts, which
// loads `ws`: rove/node imports only this, and `ws` comes in when the app passes webSockets.
import { HttpError } from '../../src/core/errors.ts';
import { errorResponse } from '../../src/core/problem.ts';
import type { NodeWebSockets } from './websocket.ts';

/** A WebSocket route reached through 'request': the server has no 'upgrade' listener of ours. */
export function notUpgraded(): Response {
  const detail = 'WebSocket: this server does not complete upgrades (add toNodeUpgradeListener(app, webSockets) to its upgrade event)';
  return errorResponse(new HttpError(501, detail, { expose: true }));
}

/** What to pass, in the 501 and the logged line. */
export const NO_WEBSOCKETS =
  "this server was not given WebSockets on Node: import { webSockets } from 'rove/node/websocket' and pass serve(app, { webSockets }) (or toNodeUpgradeListener(app, webSockets))";

/** A WebSocket route's upgrade on a server given no `webSockets`. */
export function noWebSockets(): Response {
  return errorResponse(new HttpError(501, `WebSocket: ${NO_WEBSOCKETS}`, { expose: true }));
}

/** Something other than `webSockets` where it goes (`true`, say): say what to pass, at once. */
export function checkWebSockets(given: unknown): void {
  if (given === undefined || (typeof given === 'object' && given !== null && (given as NodeWebSockets).kind === 'rove:node-websockets')) return;
  throw new TypeError(
    `serve(): webSockets takes the value from 'rove/node/websocket', not ${String(given)}: import { webSockets } from 'rove/node/websocket' and pass serve(app, { webSockets })`,
  );
}
