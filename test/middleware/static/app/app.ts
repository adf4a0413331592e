// The app the static tests run on every runtime: serveStatic under /static,
// plus routes that show what falls through.
import { App } from 'rove';
import { serveStatic } from 'rove/static';

export function staticApp(root: string): App {
  const app = new App();
  app.get('/', (c) => c.text('ok'));
  app.use('/static', serveStatic({ root, prefix: '/static', cacheControl: 'public, max-age=60', precompressed: true }));
  app.use('/plain', serveStatic({ root, prefix: '/plain', index: false, etag: false, lastModified: false }));
  app.get('/static/fallthrough', (c) => c.text('route after a missing file'));
  return app;
}
