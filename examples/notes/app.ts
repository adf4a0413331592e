// The notes app: pages rendered from views, a login form, a server-side session, CSRF
// protection, a JSON API for another origin (CORS + Bearer JWT), an admin page behind
// basic auth, security headers with a CSP nonce, ETags, a request id and compression.
// The entries (node.ts, deno.ts, bun.ts, deploy.ts, worker.ts) only choose the session
// store, whether to compress, and where the static files are. The secrets and the allowed
// origin are read from `c.env` on each request (see settings below), so the same app module
// is built once, at startup, on every runtime: Workers included, where env exists only per request.
import { App, type Context, HttpError } from 'rove';
import { basicAuth, jwt, jwtPayload } from 'rove/auth';
import { compress } from 'rove/compress';
import { implement, openapiHandler } from 'rove/contract';
import { cors } from 'rove/cors';
import { csrf, csrfToken } from 'rove/csrf';
import { etag } from 'rove/etag';
import { requestId } from 'rove/request-id';
import { cspNonce, NONCE, secureHeaders } from 'rove/secure-headers';
import { getSession, type SessionStore, session } from 'rove/session';
import { serveStatic } from 'rove/static';
import { createViews } from 'rove/views';
import { notesApi } from './api.ts';
import { type NotesConfig, notesConfig } from './config.ts';
import { NoteStore, noteText } from './notes-store.ts';
import views from './views.gen.ts';

export { DEV_CONFIG, type NotesConfig, notesConfig } from './config.ts';

export interface NotesOptions {
  /** Where sessions live: `memoryStore()` on one process, `kvStore(...)` on Workers. */
  store: SessionStore;
  /** Compress responses (Node, Deno, Bun); Workers and Deno Deploy compress at the platform. */
  compress?: boolean;
  /** The directory served as /static on Node, Deno, Bun and Deploy; Workers serve it through `[assets]`. */
  publicDir?: string;
  /** The notebook; tests may pass their own. */
  notes?: NoteStore;
}

const NAME = /^[\p{L}\p{N}_.-]{1,40}$/u;

/**
 * This request's settings, from `c.env`: the process environment on Node, Deno, Bun and Deploy
 * (their adapters pass it), `[vars]` and secrets on Workers. The options below that take them are
 * functions of the context; each keeps what it derives (imported keys, the checked origin) while
 * the value stays the same, so reading them per request costs a few property reads.
 */
const settings = (c: Context): NotesConfig => notesConfig(c.env);

/**
 * Builds the notes app.
 *
 * @example
 * const app = createNotesApp({ store: memoryStore(), compress: true, publicDir: './public' });
 */
export function createNotesApp(o: NotesOptions): App {
  const notes = o.notes ?? new NoteStore();
  const app = new App({ views: createViews({ compiled: views }) });

  app.use(requestId());
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: [NONCE],
        styleSrc: ["'self'"],
        imgSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
      },
    }),
  );
  // The pages are small: gzip already pays off from a few hundred bytes.
  if (o.compress) app.use(compress({ threshold: 256 }));
  app.use('/static', serveStatic({ root: o.publicDir ?? './public', prefix: '/static', cacheControl: 'public, max-age=3600' }));
  // Sessions only on the routes that use them: not the static files, not the token-authenticated POST.
  const sessions = session({ keys: (c) => [settings(c).sessionSecret], store: o.store });
  // Form posts must come from this site and carry the session's token.
  const forms = csrf();
  // The other origin calls the API with a Bearer token, not cookies: no `credentials`, so a
  // cross-origin GET /api/notes never carries the session.
  app.use('/api', cors({ origins: (c) => settings(c).allowedOrigin, methods: ['GET', 'POST'], headers: ['content-type', 'authorization'], maxAge: 600 }));

  const user = async (c: Pick<Context, 'get'>): Promise<string | undefined> => {
    const name = await getSession(c).get('name');
    return typeof name === 'string' ? name : undefined;
  };
  // A CSRF token lives in the session, so asking for one starts a session: only pages with a
  // form ask (the login form, and the pages of a logged-in user), not every anonymous visit.
  const page = async (c: Context, view: string, data: Record<string, unknown>, form: boolean) =>
    c.render(view, { ...data, csrf: form ? await csrfToken(c) : '', nonce: cspNonce(c) });

  app.get('/', sessions, forms, async (c) => {
    const name = await user(c);
    return page(c, 'home', { user: name, notes: name === undefined ? [] : notes.list(name) }, name !== undefined);
  });

  app.get('/login', sessions, forms, async (c) => page(c, 'login', { user: await user(c) }, true));

  app.post('/login', sessions, forms, async (c) => {
    const form = await c.req.form();
    const name = typeof form.name === 'string' ? form.name.trim() : '';
    if (!NAME.test(name)) throw new HttpError(400, 'name: 1 to 40 letters, digits, _ . or -');
    // A new session id at login: a cookie planted before login is worth nothing after it.
    await getSession(c).regenerate();
    await getSession(c).set('name', name);
    return c.redirect('/', 303);
  });

  app.post('/logout', sessions, forms, async (c) => {
    await getSession(c).destroy();
    return c.redirect('/', 303);
  });

  app.get('/me', sessions, async (c) => {
    const name = await user(c);
    if (name === undefined) throw new HttpError(401, 'Not logged in');
    return c.json({ name });
  });

  app.post('/notes', sessions, forms, async (c) => {
    const name = await user(c);
    if (name === undefined) return c.redirect('/login', 303);
    const text = noteText((await c.req.form()).text);
    if (text === null) throw new HttpError(400, 'text: 1 to 500 characters');
    notes.add(name, text);
    return c.redirect('/', 303);
  });

  // The JSON API is declared in api.ts; implement() registers it, the JSON body validated (400 / 415).
  implement(
    app,
    notesApi.list,
    async (c) => {
      const name = await user(c);
      if (name === undefined) throw new HttpError(401, 'Not logged in');
      return c.json([...notes.list(name)], 200);
    },
    { middleware: [sessions, etag()] },
  );

  // The API takes a Bearer JWT instead of the session cookie, so cross-site form posts can't reach it.
  // The token is checked before the body is read.
  implement(
    app,
    notesApi.add,
    async (c) => {
      const sub = jwtPayload(c).sub;
      if (typeof sub !== 'string' || !NAME.test(sub)) throw new HttpError(403, 'the token names no valid user (sub)');
      const text = noteText(c.valid('json').text);
      if (text === null) throw new HttpError(400, 'text: 1 to 500 characters');
      return c.json(notes.add(sub, text), 201);
    },
    // The declared auth: 'jwt' is enforced by the jwt() given for it (implement() refuses a declared scheme without one).
    { auth: { jwt: jwt({ secret: (c) => settings(c).jwtSecret, alg: 'HS256', requiredClaims: ['sub'] }) } },
  );

  app.get('/api/openapi.json', openapiHandler(notesApi, { info: { title: 'Notes API', version: '1.0.0' } }));

  app.get('/admin', basicAuth({ username: 'admin', password: (c) => settings(c).adminPassword, realm: 'notes admin' }), (c) =>
    c.render('admin', { users: notes.users, notes: notes.count, nonce: cspNonce(c) }),
  );

  return app;
}
