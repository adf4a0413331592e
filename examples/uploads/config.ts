// Where the disk store keeps files: UPLOAD_DIR, or a folder in the system's temp dir.
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function uploadDir(env: Record<string, string | undefined>): string {
  return env.UPLOAD_DIR ?? join(tmpdir(), 'rove-uploads');
}
