// deno serve, locally, with the disk store. Deno Deploy has no writable disk: there, stream files
// to an object store instead (R2 or S3 through its HTTP API; see docs/uploads.md).
import { toDeploy } from 'rove/deno-deploy';
import { createUploadsApp } from './app.ts';
import { storeFrom } from './config.ts';
import { diskStore } from './disk-store.ts';

const store = storeFrom(Deno.env.toObject(), diskStore);
export default toDeploy(createUploadsApp({ store: () => store }));
