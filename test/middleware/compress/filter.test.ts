import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { App } from '../../../src/index.ts';
import { type CompressOptions, compress } from '../../../src/middleware/compress/index.ts';

const BODY = 'x'.repeat(4096);

async function encodingFor(type: string, options: CompressOptions = {}): Promise<string | null> {
  const app = new App().use(compress({ threshold: 0, enabled: true, ...options })).get('/', () => new Response(BODY, { headers: { 'content-type': type } }));
  const res = await app.request('/', { headers: { 'accept-encoding': 'gzip' } });
  await res.arrayBuffer();
  return res.headers.get('content-encoding');
}

describe('compress() content-type filter', () => {
  it('compresses text, JSON, JavaScript, XML and SVG by default, and not images, video or zip', async () => {
    for (const type of ['text/html; charset=utf-8', 'application/json', 'text/javascript', 'application/xml', 'image/svg+xml', 'application/ld+json'])
      expect(await encodingFor(type), type).toBe('gzip');
    for (const type of ['image/png', 'video/mp4', 'application/zip', 'application/octet-stream', 'font/woff2'])
      expect(await encodingFor(type), type).toBeNull();
  });

  it('takes a predicate of the content type instead', async () => {
    const filter = (type: string) => type.startsWith('application/json');
    expect(await encodingFor('application/json', { filter })).toBe('gzip');
    expect(await encodingFor('text/html', { filter })).toBeNull();
    expect(await encodingFor('application/octet-stream', { filter: () => true })).toBe('gzip');
  });

  it('takes a RegExp, the same on every request even with the g flag', async () => {
    const filter = /^text\/csv/g;
    for (let i = 0; i < 3; i++) expect(await encodingFor('text/csv', { filter })).toBe('gzip');
    expect(await encodingFor('text/html', { filter })).toBeNull();
  });

  it('never compresses what is compressed already, or an event stream, whatever the filter says', async () => {
    for (const type of ['image/jpeg', 'video/webm', 'audio/ogg', 'application/gzip', 'text/event-stream'])
      expect(await encodingFor(type, { filter: () => true }), type).toBeNull();
  });

  it('lets in only a true answer', async () => {
    expect(await encodingFor('text/html', { filter: (() => 'yes') as never })).toBeNull();
    expect(() => compress({ filter: 'text/*' as never })).toThrow(TypeError);
  });

  it('asks the filter for any content type and follows its answer, but for packed formats (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[a-z]{1,8}\/[a-z0-9.+-]{1,12}$/), fc.boolean(), async (type, answer) => {
        const packed =
          /^(image\/(?!svg\+xml)|audio\/|video\/|font\/woff2|application\/(zip|gzip|x-gzip|x-7z-compressed|x-rar-compressed|x-bzip2|x-xz|zstd)|text\/event-stream)/.test(
            type,
          );
        expect(await encodingFor(type, { filter: () => answer })).toBe(answer && !packed ? 'gzip' : null);
      }),
      { numRuns: 100 },
    );
  });
});
