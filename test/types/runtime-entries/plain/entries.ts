// A project that names no runtime (here a Workers one without `customConditions`, as wrangler's
// template writes it) sees only what every runtime's entry exports.
import type * as fsRoutes from 'rove/fs-routes';
import type * as staticFiles from 'rove/static';
import type * as views from 'rove/views';

type Has<M, K extends string> = K extends keyof M ? true : false;

export const seen: [Has<typeof staticFiles, 'serveStatic'>, Has<typeof staticFiles, 'fileSource'>] = [true, false];
export const seenViews: [Has<typeof views, 'createViews'>, Has<typeof views, 'fileSource'>] = [true, false];
export const seenRoutes: [Has<typeof fsRoutes, 'fileRoutes'>, Has<typeof fsRoutes, 'scanRoutes'>] = [true, false];
