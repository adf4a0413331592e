// The four settings of the notes app, read from the environment (process env on
// Node/Deno/Bun/Deploy, `[vars]` and secrets on Workers), with development defaults.

/** What the notes app needs to know; app.ts reads it from each request's `c.env`. */
export interface NotesConfig {
  /** Signs the session cookie (and derives its key). */
  sessionSecret: string;
  /** Password of the `admin` user on /admin (basic auth). */
  adminPassword: string;
  /** HS256 secret of the Bearer tokens that may POST /api/notes. */
  jwtSecret: string;
  /** The one other origin allowed to call /api/notes from a browser (CORS). */
  allowedOrigin: string;
}

/** Development defaults: fine on a laptop, never in production (set the variables there). */
export const DEV_CONFIG: Readonly<NotesConfig> = Object.freeze({
  sessionSecret: 'dev-session-secret-0123456789abcdef',
  adminPassword: 'secret',
  jwtSecret: 'dev-jwt-secret',
  allowedOrigin: 'https://app.example',
});

/**
 * Reads SESSION_SECRET, ADMIN_PASSWORD, JWT_SECRET and ALLOWED_ORIGIN; an unset or empty
 * variable falls back to its development default.
 *
 * @example
 * const config = notesConfig(process.env);
 */
export function notesConfig(env: Readonly<Record<string, unknown>>): NotesConfig {
  const pick = (name: string, fallback: string): string => {
    const value = env[name];
    return typeof value === 'string' && value !== '' ? value : fallback;
  };
  return {
    sessionSecret: pick('SESSION_SECRET', DEV_CONFIG.sessionSecret),
    adminPassword: pick('ADMIN_PASSWORD', DEV_CONFIG.adminPassword),
    jwtSecret: pick('JWT_SECRET', DEV_CONFIG.jwtSecret),
    allowedOrigin: pick('ALLOWED_ORIGIN', DEV_CONFIG.allowedOrigin),
  };
}
