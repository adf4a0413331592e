// Workers: one app per isolate; the memory store lives as long as the isolate.
import { toWorker } from 'rove/cloudflare';
import { makeApp } from './app.ts';

export default toWorker(makeApp());
