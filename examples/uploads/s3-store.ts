// Files in an S3-compatible store (AWS S3, R2's S3 API, MinIO…), over plain fetch with SigV4
// signing (aws4fetch), so it runs on every runtime. A part's length is known only at its end, so
// the file goes up as an S3 multipart upload in 5 MiB pieces: one piece in memory at a time, and
// an upload that fails midway is aborted.
import { AwsClient } from 'aws4fetch';
import type { FileStore } from './app.ts';

export interface S3Options {
  /** The bucket's URL, path-style: `https://s3.eu-west-1.amazonaws.com/my-bucket`. */
  bucketUrl: string;
  accessKeyId: string;
  secretAccessKey: string;
  region?: string;
}

/** S3's smallest part, except the last. */
const PIECE = 5 * 1024 * 1024;

/**
 * @example
 * const s3 = s3Store({ bucketUrl: process.env.S3_BUCKET_URL!, accessKeyId: '…', secretAccessKey: '…' });
 * createUploadsApp({ store: () => s3 });
 */
export function s3Store(o: S3Options): FileStore {
  const aws = new AwsClient({ accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey, service: 's3', region: o.region ?? 'us-east-1' });
  const base = o.bucketUrl.replace(/\/+$/, '');
  const call = async (url: string, init: RequestInit, what: string): Promise<Response> => {
    const res = await aws.fetch(url, init);
    if (!res.ok) throw new Error(`S3 ${what} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    return res;
  };
  return {
    async put(key, body, type) {
      const object = `${base}/${encodeURIComponent(key)}`;
      const created = await (await call(`${object}?uploads`, { method: 'POST', headers: { 'content-type': type } }, 'CreateMultipartUpload')).text();
      const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(created)?.[1];
      if (!uploadId) throw new Error('S3 CreateMultipartUpload gave no UploadId');
      const at = (query: string) => `${object}?${query}uploadId=${encodeURIComponent(uploadId)}`;
      const etags: string[] = [];
      let piece = new Uint8Array(PIECE);
      let filled = 0;
      let size = 0;
      const send = async () => {
        const res = await call(at(`partNumber=${etags.length + 1}&`), { method: 'PUT', body: piece.subarray(0, filled) }, 'UploadPart');
        etags.push(res.headers.get('etag') ?? '');
        await res.arrayBuffer();
        piece = new Uint8Array(PIECE);
        filled = 0;
      };
      try {
        const reader = body.getReader();
        for (let step = await reader.read(); !step.done; step = await reader.read()) {
          const chunk = step.value;
          size += chunk.byteLength;
          for (let i = 0; i < chunk.byteLength; ) {
            const take = Math.min(PIECE - filled, chunk.byteLength - i);
            piece.set(chunk.subarray(i, i + take), filled);
            filled += take;
            i += take;
            if (filled === PIECE) await send();
          }
        }
        if (filled > 0 || etags.length === 0) await send();
        const parts = etags.map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${etag}</ETag></Part>`).join('');
        await (
          await call(at(''), { method: 'POST', body: `<CompleteMultipartUpload>${parts}</CompleteMultipartUpload>` }, 'CompleteMultipartUpload')
        ).arrayBuffer();
        return { size };
      } catch (error) {
        await aws.fetch(at(''), { method: 'DELETE' }).then(
          (r) => r.arrayBuffer(),
          () => {},
        );
        throw error;
      }
    },
  };
}
