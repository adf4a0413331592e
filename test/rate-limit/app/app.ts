// rateLimit() and timeout() on one app, for the over-HTTP tests on every runtime.
import { App } from 'rove';
import { cache } from 'rove/cache';
import { rateLimit } from 'rove/rate-limit';
import { timeout, timeoutSignal } from 'rove/timeout';

export const app = new App();
let aborted: string | undefined;

app.get('/', (c) => c.text('ok'));
// By the client's address (the default key).
app.use('/limited', rateLimit({ window: 60, limit: 3 }));
app.get('/limited', (c) => c.text('counted'));
// By a header, so each test case has its own count.
app.use('/keyed', rateLimit({ window: 60, limit: 2, name: 'keyed', key: (c) => c.req.header('x-client') }));
app.get('/keyed', (c) => c.text('counted'));

app.use('/slow', timeout(100));
app.get('/slow', async (c) => {
  const signal = timeoutSignal(c);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 5000);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      aborted = (signal.reason as DOMException).name;
      resolve();
    });
  });
  return c.text('late');
});
app.use('/fast', timeout(5000));
app.get('/fast', (c) => c.text(String(timeoutSignal(c).aborted)));
app.get('/aborted', (c) => c.text(aborted ?? 'no'));

// cache(): a counter, so a hit shows as the same number twice; /thing, a write that invalidates.
let served = 0;
app.use('/cached', cache({ cacheName: 'rove-test' }));
app.get('/cached', (c) => c.text(`served ${++served}`, 200, { 'cache-control': 'public, max-age=60', vary: 'accept-language' }));
let version = 1;
app.use('/thing', cache({ cacheName: 'rove-test-thing' }));
app.get('/thing', (c) => c.json({ version }, 200, { 'cache-control': 'public, max-age=60' }));
app.put('/thing', (c) => c.json({ version: ++version }));
