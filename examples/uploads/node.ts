// Node: npm run uploads:node. PORT, HOST, UPLOAD_DIR, MAX_FILE_SIZE (bytes, default 64 MiB).
import { serve } from 'rove/node';
import { createUploadsApp } from './app.ts';
import { storeFrom } from './config.ts';
import { diskStore } from './disk-store.ts';

const store = storeFrom(process.env, diskStore);
serve(createUploadsApp({ store: () => store }), { port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1' });
