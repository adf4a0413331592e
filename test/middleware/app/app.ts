// The middleware catalog on one app, for the over-HTTP tests on every runtime.
import { App } from 'rove';
import { compress } from 'rove/compress';
import { etag } from 'rove/etag';
import { logger } from 'rove/logger';
import { requestId } from 'rove/request-id';
import { cspNonce, NONCE, secureHeaders } from 'rove/secure-headers';

export const BIG = 'hello rove '.repeat(400);

export const app = new App();
const lines: string[] = [];
logger(app, {
  write: (line) => {
    lines.push(line);
    if (lines.length > 20) lines.shift(); // bounded: the test reads the last few
  },
});
app.use(requestId());
app.use(secureHeaders({ contentSecurityPolicy: { defaultSrc: ["'self'"], scriptSrc: [NONCE] } }));
app.use(compress());
app.use('/api', etag());
app.get('/', (c) => c.text('ok'));
app.get('/page', (c) => c.html(`<!DOCTYPE html><script nonce="${cspNonce(c)}">ok()</script><p>${BIG}</p>`));
app.get('/api/notes', (c) => c.json([{ id: 1, text: 'hi' }]));
app.get('/log', (c) => c.json(lines));
