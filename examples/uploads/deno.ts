// Deno: npm run uploads:deno (--allow-write for the upload folder).
import { serve } from 'rove/deno';
import { createUploadsApp } from './app.ts';
import { storeFrom } from './config.ts';
import { diskStore } from './disk-store.ts';

const store = storeFrom(Deno.env.toObject(), diskStore);
serve(createUploadsApp({ store: () => store }), { port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1' });
