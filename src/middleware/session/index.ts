// rove/session: sessions sealed in a cookie (the default) or kept in a server-side store.

export { ConfigError, type FromContext } from '../../core/from-context.ts';
export { type DenoKvSessionLike, type DenoKvSessionStoreOptions, denoKvStore } from './deno-kv-store.ts';
export { type KVNamespaceLike, type KvStoreOptions, kvStore } from './kv-store.ts';
export { type MemoryStoreOptions, memoryStore } from './memory-store.ts';
export { MAX_COOKIE_SIZE, type SessionCookieOptions, type SessionKeys, type SessionOptions, SessionTooLargeError, session } from './middleware.ts';
export { type RedisLike, type RedisStoreOptions, redisStore } from './redis-store.ts';
export { checkSecrets, MIN_SECRET_LENGTH, type Sealer, sealer } from './seal.ts';
export { getSession, Session } from './session.ts';
export { type CookieStore, cookieStore, type SessionStore } from './store.ts';
