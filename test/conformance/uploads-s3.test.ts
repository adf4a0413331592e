// examples/uploads with its S3 store, against s3rver (an S3-compatible server, started here on a
// loopback port): files go up as S3 multipart uploads, signed with SigV4, from Node, Deno and Bun.
// A file over the limit is never completed into an object.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AwsClient } from 'aws4fetch';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/proc.ts';
import { pattern } from '../uploads/helpers.ts';
import { type Running, start } from './servers.ts';

const MAX = 8 * 1024 * 1024;
let s3: S3rver;
let bucketUrl = '';
const dir = mkdtempSync(join(tmpdir(), 'rove-s3rver-'));
// s3rver's own credentials: it checks the signatures.
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
// No retries: s3rver answers 501 for what it lacks, which aws4fetch would retry for a minute.
const aws = new AwsClient({ ...credentials, service: 's3', region: 'us-east-1', retries: 0 });
const objects = async () => [...(await (await aws.fetch(`${bucketUrl}?list-type=2`)).text()).matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1]);

beforeAll(async () => {
  const port = await freePort();
  s3 = new S3rver({ port, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'uploads', configs: [] }] });
  await s3.run();
  bucketUrl = `http://127.0.0.1:${port}/uploads`;
});
afterAll(async () => {
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(['node', 'deno', 'bun'] as const)('examples/uploads to S3 on %s', (runtime) => {
  let s: Running;
  beforeAll(async () => {
    s = await start(runtime, 'examples/uploads', '/', {
      S3_BUCKET_URL: bucketUrl,
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      MAX_FILE_SIZE: String(MAX),
    });
  }, 60_000);
  afterAll(() => s?.stop());

  it('streams a 7 MiB file up in two pieces, and the object holds every byte', async () => {
    const file = pattern(7 * 1024 * 1024, 3);
    const form = new FormData();
    form.append('file', new File([file], 'seven.bin'));
    const res = await fetch(`${s.url}/upload`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
    const { files } = (await res.json()) as { files: { key: string; size: number }[] };
    expect(files[0]!.size).toBe(file.byteLength);
    const object = await aws.fetch(`${bucketUrl}/${files[0]!.key}`);
    expect(object.status).toBe(200);
    expect(sha(new Uint8Array(await object.arrayBuffer()))).toBe(sha(file)); // toEqual on 7 MiB would take minutes
  });

  it('stops the upload of a file over the limit: a 413, and no object', async () => {
    const before = await objects();
    const form = new FormData();
    form.append('file', new File([pattern(MAX + 1024 * 1024)], 'over.bin'));
    const res = await fetch(`${s.url}/upload`, { method: 'POST', body: form });
    expect(res.status).toBe(413);
    await res.arrayBuffer();
    // The store aborts the multipart upload (s3rver, lacking AbortMultipartUpload, answers 405).
    expect(await objects()).toEqual(before);
  });
});
