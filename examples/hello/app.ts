import { App } from 'rove';

type Bindings = { GREETING?: string };

/** The hello app: the contract the README, the conformance suite and users rely on. */
export const app = new App<{ Bindings: Bindings }>();

app.get('/', (c) => c.json({ hello: 'world' }));

app.get('/users/:id', (c) => c.json({ id: c.req.param('id') }));

app.post('/echo', async (c) => c.json(await c.req.json()));

app.get('/env', (c) => c.text(c.env.GREETING ?? 'Hello from Rove'));

app.get('/stream', (c) =>
  c.stream(async (out) => {
    for (let i = 1; i <= 5; i++) {
      await out.write(`chunk ${i}\n`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }),
);

app.get('/boom', () => {
  throw new Error('this message must not reach the client');
});
