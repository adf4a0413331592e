// otel-runtime-check as a Workers module, for workerd.
import { check } from './otel-runtime-check.ts';

export default {
  async fetch(): Promise<Response> {
    return new Response(await check());
  },
};
