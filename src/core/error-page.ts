/**
 * rove/error-page: a short HTML error page for browsers, in place of the
 * problem+json every other client gets. Opt in per app; apps that serve only
 * APIs do not carry it.
 */
import { describeError } from './errors.ts';
import { appendHeaders } from './response.ts';

/** Renders the app's default error answer when the client prefers HTML; undefined leaves it to problem+json. */
export type ErrorPage = (error: unknown, accept: string | null, dev: boolean) => Response | undefined;

/** JSON unless the client asks for HTML ahead of JSON (a browser's Accept does). */
export function prefersHtml(accept: string | null): boolean {
  if (!accept) return false;
  const html = accept.indexOf('text/html');
  if (html === -1) return false;
  const json = accept.search(/application\/(?:problem\+)?json/);
  return json === -1 || html < json;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]);
}

/**
 * The HTML error page: status and title, the message when it may be shown, the stack in dev mode.
 *
 * @example
 * import { htmlErrorPage } from 'rove/error-page';
 * const app = new App({ errorPage: htmlErrorPage });
 */
export const htmlErrorPage: ErrorPage = (error, accept, dev) => {
  if (!prefersHtml(accept)) return undefined;
  const { http, status, title, detail } = describeError(error, dev);
  const stack = dev && error instanceof Error && error.stack ? `<pre>${escapeHtml(error.stack)}</pre>` : '';
  const body =
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${status} ${title}</title></head>` +
    `<body><h1>${status} ${title}</h1>${detail ? `<p>${escapeHtml(detail)}</p>` : ''}${stack}</body></html>`;
  const res = new Response(body, { status });
  if (http?.headers !== undefined) appendHeaders(res.headers, http.headers);
  res.headers.set('content-type', 'text/html; charset=utf-8');
  return res;
};
