// Responses with headers, for the over-HTTP test on every runtime (test/response/http.test.ts):
// each helper with extra headers and two cookies, errors with headers, and security headers.
import { App, type Context, HttpError } from 'rove';
import { setCookie } from 'rove/cookie';
import { secureHeaders } from 'rove/secure-headers';

export const app = new App();

const cookies = (c: Context) => {
  setCookie(c, 'a', '1');
  setCookie(c, 'b', '2');
};

app.get('/', (c) => c.text('ok'));
app.get('/json', (c) => {
  c.header('x-a', '1');
  cookies(c);
  return c.json({ ok: true });
});
app.get('/json-201', (c) => c.json({ ok: true }, 201, { 'x-a': '1' }));
app.get('/text', (c) => c.text('hi', 200, { 'x-b': '2' }));
app.get('/html', (c) => {
  cookies(c);
  return c.html('<p>hi</p>');
});
app.get('/body', (c) => c.body('plain', 200, { 'x-d': '4' }));
app.get('/bytes', (c) => c.body(new Uint8Array([104, 105]), 200, { 'content-type': 'application/octet-stream', 'x-d': '4' }));
app.get('/stream', (c) => {
  c.header('x-e', '5');
  cookies(c);
  return c.stream(async (w) => {
    await w.write('a');
    await w.write('b');
  });
});
app.get('/redirect', (c) => {
  cookies(c);
  return c.redirect('/json', 303);
});
app.get('/problem', () => {
  throw new HttpError(409, 'taken', {
    headers: [
      ['x-f', '6'],
      ['content-type', 'text/plain'],
      ['set-cookie', 'a=; Max-Age=0'],
      ['set-cookie', 'b=; Max-Age=0'],
    ],
  });
});
app.use('/secure', secureHeaders({ headers: { 'x-extra': 'yes' } }));
app.get('/secure', (c) => c.json({ ok: true }));
app.get('/secure/own', (c) => c.text('own', 200, { 'x-frame-options': 'SAMEORIGIN' }));
