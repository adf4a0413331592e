// A Node project (`moduleResolution: "nodenext"` sets the `node` condition) sees Node's entries,
// file-system readers included.
import { scanRoutes } from 'rove/fs-routes';
import { fileSource, serveStatic } from 'rove/static';
import { createViews, fileSource as viewFiles } from 'rove/views';

export const handler = serveStatic({ root: './public' });
export const files = fileSource('./public');
export const views = createViews({ reader: viewFiles('./views') });
export const routes = scanRoutes('./routes');
export const pid: number = process.pid;
