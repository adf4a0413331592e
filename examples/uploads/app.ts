// Uploads that stream: a form posts files, each streamed straight into a store (disk on Node, Deno
// and Bun; R2 on Workers) while the handler counts its bytes and reads its first ones. Nothing is
// held in memory but a chunk at a time. Browsers get HTML pages, refusals included (a file over
// the limit gets a readable 413 page); other clients get JSON. See docs/uploads.md.
import { App } from 'rove';
import { htmlErrorPage, prefersHtml } from 'rove/error-page';
import { parts, type UploadLimits } from 'rove/uploads';
import { formPage, resultPage } from './pages.ts';
import { sniffer } from './sniff.ts';

/** Where files go: written as they stream, removed again when the stream fails. */
export interface FileStore {
  /** Store `body` under `key`; resolves once it is all written. A body that errors rejects with that error. */
  put(key: string, body: ReadableStream<Uint8Array>, type: string): Promise<{ size: number; sha256?: string }>;
}

export interface StoredFile {
  name: string;
  key: string;
  size: number;
  /** What the first bytes say the file is, whatever the client declared. */
  kind: string;
  declared: string;
  sha256?: string;
}

const MiB = 1024 * 1024;

/**
 * @example
 * const disk = diskStore('/var/uploads');
 * const app = createUploadsApp({ store: () => disk });
 * serve(app, { port: 8000 });
 */
export function createUploadsApp(o: { store: (env: Record<string, unknown>) => FileStore }): App {
  const app = new App({ errorPage: htmlErrorPage });

  app.get('/', (c) => c.html(formPage(maxFileSize(c.env))));

  app.post('/upload', async (c) => {
    let description = '';
    const files: StoredFile[] = [];
    const max = maxFileSize(c.env);
    const limits: UploadLimits = { maxFileSize: max, maxTotalSize: 2 * max + MiB, maxFiles: 2, maxParts: 8, maxFieldSize: 4096 };
    for await (const part of parts(c, limits)) {
      if (part.kind === 'field') {
        if (part.name === 'description') description = part.value.trim().slice(0, 200);
        continue;
      }
      if (part.filename === '') continue; // a file input left empty
      const sniff = sniffer();
      const key = `${crypto.randomUUID()}${extension(part.filename)}`;
      const stored = await o.store(c.env as Record<string, unknown>).put(key, part.body.pipeThrough(sniff.stream), part.contentType);
      files.push({ name: part.filename, key, size: stored.size, kind: sniff.kind(), declared: part.contentType, sha256: stored.sha256 });
    }
    if (files.length === 0) return c.json({ error: 'no file' }, 400);
    return prefersHtml(c.req.header('accept') ?? null) ? c.html(resultPage(description, files), 201) : c.json({ description, files }, 201);
  });
  return app;
}

/** MAX_FILE_SIZE from the bindings or the environment, in bytes (default 64 MiB). */
function maxFileSize(env: unknown): number {
  const n = Number((env as Record<string, unknown> | undefined)?.MAX_FILE_SIZE);
  return Number.isSafeInteger(n) && n > 0 ? n : 64 * MiB;
}

/** A short extension from the client's name (letters and digits only), for the stored key. */
function extension(filename: string): string {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(filename);
  return m ? `.${m[1]!.toLowerCase()}` : '';
}
