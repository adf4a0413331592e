// What Deno hands a handler besides the request: the peer's address, and the environment. Shared by
// `serve()` and `toDeploy()`, so a `deno serve` module never loads the Deno.serve adapter.

/** The second argument of Deno.serve's handler (and of `deno serve`'s fetch). */
export interface DenoServeInfo {
  remoteAddr?: { transport?: string; hostname?: string; port?: number };
}

declare const Deno: { env: { toObject(): Record<string, string> } };

/** The process environment, or nothing when `--allow-env` was not given. */
export function denoEnv(): Record<string, string> {
  try {
    return Deno.env.toObject();
  } catch {
    return {};
  }
}

/** The peer of a Deno.serve request: `info` is the handler's second argument. */
export function denoAddress(_request: unknown, info: unknown): string | undefined {
  return (info as DenoServeInfo | undefined)?.remoteAddr?.hostname;
}
