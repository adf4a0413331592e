// A Bun project (Bun's types, the `bun` condition) sees Bun's entries, file-system readers
// included.
import { scanRoutes } from 'rove/fs-routes';
import { fileSource, serveStatic } from 'rove/static';
import { createViews, fileSource as viewFiles } from 'rove/views';

export const handler = serveStatic({ root: './public' });
export const files = fileSource('./public');
export const views = createViews({ reader: viewFiles(new URL('./views', import.meta.url)) });
export const routes = scanRoutes(new URL('./routes', import.meta.url));
export const version: string = Bun.version;
