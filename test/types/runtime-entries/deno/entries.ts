// A Deno project (Deno's types, the `deno` condition) sees Deno's entries, file-system readers
// included.
import { scanRoutes } from 'rove/fs-routes';
import { fileSource, serveStatic } from 'rove/static';
import { createViews, fileSource as viewFiles } from 'rove/views';

export const handler = serveStatic({ root: './public' });
export const files = fileSource('./public');
export const views = createViews({ reader: viewFiles(new URL('./views', import.meta.url)) });
export const routes = scanRoutes(new URL('./routes', import.meta.url));
export const version: string = Deno.version.deno;
