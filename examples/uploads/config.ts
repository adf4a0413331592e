// Where the example keeps files, from the environment: an S3-compatible bucket when S3_BUCKET_URL
// is set (with S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and S3_REGION), else a folder on disk
// (UPLOAD_DIR, default: rove-uploads in the system's temp dir).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileStore } from './app.ts';
import { s3Store } from './s3-store.ts';

export function storeFrom(env: Record<string, string | undefined>, disk: (dir: string) => FileStore): FileStore {
  if (env.S3_BUCKET_URL) {
    return s3Store({
      bucketUrl: env.S3_BUCKET_URL,
      accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
      region: env.S3_REGION,
    });
  }
  return disk(env.UPLOAD_DIR ?? join(tmpdir(), 'rove-uploads'));
}
