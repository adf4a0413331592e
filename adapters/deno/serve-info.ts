// What a Deno.serve handler (and `deno serve`'s fetch) is given besides the request: the peer and
// the environment. Its own module, so `rove/deno-deploy` does not load the server lifecycle of
// `rove/deno` (loaded from source, every module counts at a cold start).

// The one Deno API used here, declared so the file type-checks without Deno's lib.
declare const Deno: { env: { toObject(): Record<string, string> } };

/** The second argument of Deno.serve's handler (and of `deno serve`'s fetch). */
export interface DenoServeInfo {
  remoteAddr?: { transport?: string; hostname?: string; port?: number };
}

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
