// Fixtures of the app-layer scenarios (static, static-304, session-read, cors-preflight,
// secure-headers, csrf-post; docs/benchmarks/methods.md), shared by the Rove, Hono
// and raw bench apps so that every framework serves the same bytes and headers.

/** Directory holding `app.css` (4,096 bytes; served as /static/app.css), relative to the repository root. */
export const PUBLIC_DIR = 'bench/shared/public';
export const CSS_SIZE = 4096;
export const STATIC_CACHE_CONTROL = 'public, max-age=3600';

/** 32+ bytes: what rove/session asks of a key. Hono's signed cookie uses the same secret. */
export const SESSION_SECRET = 'bench-session-secret-0123456789abcdef';
export const SESSION_DATA = { user: 'bench-user', visits: 1 } as const;
export const SESSION_BODY = '{"user":"bench-user","visits":1}';

export const CORS_ORIGIN = 'https://app.example';
export const CORS_METHODS = ['GET', 'POST'] as const;
export const CORS_MAX_AGE = 600;

/** `rate-limited`: a memory-store limit this high never trips under the bench's load. */
export const RATE_LIMIT = 1_000_000;
export const RATE_WINDOW_S = 60;
export const RATE_POLICY = `"default";q=${RATE_LIMIT};w=${RATE_WINDOW_S}`;

/** `session-read-redis`: the prefix of the session keys in the bench's redis-server, and the raw peer's cookie. */
export const REDIS_SESSION_PREFIX = 'session:';
export const RAW_SESSION_COOKIE = 'sid';
