// The two-route app of the bundle-size comparison, written with Rove.
// bench/bundle-size.ts bundles it the way a Workers build would and reports its size.
import { App } from 'rove';

const app = new App();

app.get('/', (c) => c.json({ hello: 'world' }));
app.get('/users/:id', (c) => c.json({ id: c.req.param('id') }));

export default app;
