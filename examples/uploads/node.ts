// Node: npm run uploads:node. PORT, HOST, UPLOAD_DIR, MAX_FILE_SIZE (bytes, default 64 MiB).
import { serve } from 'rove/node';
import { createUploadsApp } from './app.ts';
import { uploadDir } from './config.ts';
import { diskStore } from './disk-store.ts';

const disk = diskStore(uploadDir(process.env));
serve(createUploadsApp({ store: () => disk }), { port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1' });
