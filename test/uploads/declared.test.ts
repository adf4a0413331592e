// A declared multipart body: route() checks the declaration, the OpenAPI document shows the files
// as binary parts, the typed client sends FormData, and readMultipart() holds the body to it.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, implement, openapi, route } from '../../src/contract/index.ts';
import { App } from '../../src/index.ts';
import { readMultipart } from '../../src/uploads/index.ts';
import { pattern } from './helpers.ts';

const upload = route({
  method: 'POST',
  path: '/photos',
  request: {
    multipart: {
      fields: z.object({ title: z.string().min(1), tags: z.array(z.string()).optional() }),
      files: { photo: { maxSize: 1000, types: ['image/png', 'image/*'], required: true }, thumb: { maxSize: 100 } },
    },
  },
  responses: { 201: z.object({ title: z.string(), files: z.array(z.object({ name: z.string(), size: z.number() })) }) },
});

function photoApp() {
  const app = new App();
  implement(
    app,
    { upload },
    {
      upload: async (c) => {
        const files: { name: string; size: number }[] = [];
        const fields = await readMultipart(c, upload.request.multipart, async (file) => {
          files.push({ name: file.name, size: (await new Response(file.body).arrayBuffer()).byteLength });
        });
        return c.json({ title: fields.title, files }, 201);
      },
    },
  );
  return app;
}

const form = (entries: [string, string | File][]) => {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
};
const png = (size: number, name = 'p.png', type = 'image/png') => new File([pattern(size)], name, { type });

describe('a declared multipart route', () => {
  it('takes the declared files and checked fields, through the typed client', async () => {
    const app = photoApp();
    const client = createClient<{ upload: typeof upload }>('http://app', { fetch: (input, init) => app.request(input, init) });
    const res = await client['POST /photos']({
      multipart: form([
        ['title', 'Sea'],
        ['photo', png(500)],
        ['thumb', png(50, 't.png')],
      ]),
    });
    expect(res.status).toBe(201);
    expect(res.data).toEqual({
      title: 'Sea',
      files: [
        { name: 'photo', size: 500 },
        { name: 'thumb', size: 50 },
      ],
    });
  });

  const cases: [string, [string, string | File][], number, string][] = [
    [
      'a file the route does not declare',
      [
        ['title', 'x'],
        ['photo', png(10)],
        ['other', png(10)],
      ],
      400,
      'does not declare',
    ],
    [
      'a type it does not allow',
      [
        ['title', 'x'],
        ['photo', png(10, 'a.pdf', 'application/pdf')],
      ],
      415,
      'must be image/png or image/*',
    ],
    [
      'a file over its maxSize',
      [
        ['title', 'x'],
        ['photo', png(10)],
        ['thumb', png(101)],
      ],
      413,
      'larger than 100 bytes',
    ],
    [
      'the largest declared size as the body limit',
      [
        ['title', 'x'],
        ['photo', png(1001)],
      ],
      413,
      'larger than 1000 bytes',
    ],
    ['a missing required file', [['title', 'x']], 400, 'lacks the file'],
    [
      'fields the schema refuses',
      [
        ['title', ''],
        ['photo', png(10)],
      ],
      400,
      'Invalid multipart fields',
    ],
  ];
  it.each(cases)('refuses %s', async (_, entries, status, text) => {
    const res = await photoApp().request('/photos', { method: 'POST', body: form(entries) });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.text()).toContain(text);
  });

  it('collects a repeated field as a list, and keeps __proto__ a plain field', async () => {
    const app = new App();
    const spec = { files: {} };
    app.post('/f', async (c) => c.json(Object.entries(await readMultipart(c, spec, () => {}))));
    const res = await app.request('/f', {
      method: 'POST',
      body: form([
        ['tag', 'a'],
        ['tag', 'b'],
        ['__proto__', 'x'],
      ]),
    });
    expect(await res.json()).toEqual([
      ['tag', ['a', 'b']],
      ['__proto__', 'x'],
    ]);
  });

  it('shows the files as binary parts in the OpenAPI document, with their types and the 413', () => {
    const doc = openapi({ upload }, { info: { title: 't', version: '1' } });
    const op = (doc.paths['/photos'] as Record<string, any>).post;
    expect(op.requestBody.content['multipart/form-data']).toEqual({
      schema: {
        type: 'object',
        properties: {
          title: { type: 'string', minLength: 1 },
          tags: { type: 'array', items: { type: 'string' } },
          photo: { type: 'string', format: 'binary', maxLength: 1000 },
          thumb: { type: 'string', format: 'binary', maxLength: 100 },
        },
        required: ['title', 'photo'],
      },
      encoding: { photo: { contentType: 'image/png, image/*' } },
    });
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['201', '400', '413', '415']));
  });

  it('route() refuses a bad declaration', () => {
    const make = (multipart: unknown) => () => route({ method: 'POST', path: '/x', request: { multipart } as never, responses: { 204: null } });
    expect(make({})).toThrow('request.multipart is');
    expect(make({ files: { a: { maxSize: -1 } } })).toThrow('maxSize');
    expect(make({ files: { a: { types: ['png'] } } })).toThrow('media types');
    expect(make({ files: {}, fields: {} })).toThrow('fields is not a Standard Schema');
    expect(() => route({ method: 'GET', path: '/x', request: { multipart: { files: {} } }, responses: { 204: null } })).toThrow('has no body');
    expect(() => route({ method: 'POST', path: '/x', request: { multipart: { files: {} }, json: z.object({}) }, responses: { 204: null } })).toThrow(
      'one of them',
    );
  });
});
