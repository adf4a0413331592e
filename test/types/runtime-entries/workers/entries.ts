// A Workers project (@cloudflare/workers-types, the `workerd` condition) sees what the Workers
// entries export: the file-system readers are not there.
import type * as fsRoutes from 'rove/fs-routes';
import type * as staticFiles from 'rove/static';
import type * as views from 'rove/views';

type Has<M, K extends string> = K extends keyof M ? true : false;

export const seen: [Has<typeof staticFiles, 'serveStatic'>, Has<typeof staticFiles, 'fileSource'>] = [true, false];
export const seenViews: [Has<typeof views, 'createViews'>, Has<typeof views, 'fileSource'>] = [true, false];
export const seenRoutes: [Has<typeof fsRoutes, 'fileRoutes'>, Has<typeof fsRoutes, 'scanRoutes'>] = [true, false];

export default {
  fetch: (_request: Request, env: { ASSETS: Fetcher }) => env.ASSETS.fetch('http://x/'),
} satisfies ExportedHandler<{ ASSETS: Fetcher }>;
