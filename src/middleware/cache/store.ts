// Where cache() keeps its copies: the Cache API's own shape, so `await caches.open(name)` is one.

/**
 * A place to keep responses by URL. The Cache API's `Cache` (Workers, Deno) has this shape;
 * `memoryCache()` and `redisCache()` are the others. `put` gets the seconds the copy stays fresh,
 * which a store that expires entries itself (Redis) uses; the Cache API reads Cache-Control.
 */
export interface CacheStore {
  match(key: Request): Promise<Response | undefined>;
  put(key: Request, response: Response, ttlSeconds?: number): Promise<void>;
  delete(key: Request): Promise<unknown>;
}

/** A stored copy, as memoryCache and redisCache keep it. */
export interface StoredResponse {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
}

export async function toStored(response: Response): Promise<StoredResponse> {
  return { status: response.status, headers: [...response.headers], body: new Uint8Array(await response.arrayBuffer()) };
}

export function fromStored(stored: StoredResponse): Response {
  return new Response(stored.body.byteLength === 0 ? null : (stored.body as BodyInit), { status: stored.status, headers: stored.headers });
}
