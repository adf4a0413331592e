// Deno: npm run uploads:deno (--allow-write for the upload folder).
import { serve } from 'rove/deno';
import { createUploadsApp } from './app.ts';
import { uploadDir } from './config.ts';
import { diskStore } from './disk-store.ts';

const disk = diskStore(uploadDir(Deno.env.toObject()));
serve(createUploadsApp({ store: () => disk }), { port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1' });
