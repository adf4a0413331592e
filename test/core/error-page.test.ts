// rove/error-page: the opt-in HTML page, and what the app does with and without it.
import { describe, expect, it } from 'vitest';
import { htmlErrorPage, prefersHtml } from '../../src/core/error-page.ts';
import { App, HttpError } from '../../src/index.ts';

const BROWSER = 'text/html,application/xhtml+xml,*/*;q=0.8';

describe('htmlErrorPage', () => {
  it('answers only a client that prefers HTML to JSON', () => {
    expect(prefersHtml(BROWSER)).toBe(true);
    expect(prefersHtml('application/json, text/html')).toBe(false);
    expect(prefersHtml(null)).toBe(false);
    expect(htmlErrorPage(new HttpError(404), 'application/json', false)).toBeUndefined();
  });

  it('keeps the error status and headers, and shows a 5xx message only in dev mode', async () => {
    const res = htmlErrorPage(new HttpError(405, 'no', { headers: { allow: 'GET' } }), BROWSER, false)!;
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(await res.text()).toContain('<h1>405 Method Not Allowed</h1><p>no</p>');
    const hidden = await htmlErrorPage(new Error('secret'), BROWSER, false)!.text();
    expect(hidden).not.toContain('secret');
    const shown = await htmlErrorPage(new Error('secret'), BROWSER, true)!.text();
    expect(shown).toContain('<p>secret</p>');
    expect(shown).toContain('<pre>');
  });

  it("is the app's 404 and 405 page for a browser, problem+json for others", async () => {
    const app = new App({ errorPage: htmlErrorPage }).get('/x', (c) => c.text('x'));
    const page = await app.request('/nothing', { headers: { accept: BROWSER } });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const api = await app.request('/x', { method: 'POST', headers: { accept: 'application/json' } });
    expect(api.status).toBe(405);
    expect(api.headers.get('content-type')).toBe('application/problem+json');
    expect(api.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
