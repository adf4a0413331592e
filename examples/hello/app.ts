import { App } from 'rove';
import { htmlErrorPage } from 'rove/error-page';
import { createViews } from 'rove/views';
import views from './views.gen.ts';

type Bindings = { GREETING?: string };

/** The hello app: the contract the README, the conformance suite and users rely on. */
// Views come pre-parsed from `npm run build:views`, so every runtime (Workers included) renders them without files.
// A browser that hits an error gets a short HTML page (rove/error-page); API clients get problem+json.
export const app = new App<{ Bindings: Bindings }>({ views: createViews({ compiled: views }), errorPage: htmlErrorPage });

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

export const PAGE_DATA = { title: 'Hello <Rove>', items: [{ name: 'ワン' }, { name: '<b>two</b>' }, { name: 'three & four' }] };

app.get('/page', (c) => c.render('page', PAGE_DATA, { stream: c.req.query('stream') === '1' }));

app.get('/missing-view', (c) => c.render('no/such/view', {}));
