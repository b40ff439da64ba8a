/** Interface `--mode http` binds unless told otherwise: this machine only. */
export const DEFAULT_HTTP_HOST = "127.0.0.1";
/** Port `--mode http` listens on unless told otherwise. */
export const DEFAULT_HTTP_PORT = 3000;

/** Options for {@linkcode listenHttp}. */
export interface ListenHttpOptions {
  /** Interface to bind. */
  hostname: string;
  /** Port to bind; 0 picks a free one. */
  port: number;
}

/** A bound HTTP server. */
export interface HttpListener extends AsyncDisposable {
  /** The address actually bound (the real port when 0 was asked). */
  hostname: string;
  port: number;
  /** Stops accepting connections and waits (at most `graceMs`) for open ones to finish. */
  shutdown(graceMs?: number): Promise<void>;
}

/** Serves `handler` with `Deno.serve`; the only place ahma opens a socket. */
export function listenHttp(
  handler: (request: Request) => Promise<Response>,
  options: ListenHttpOptions,
): HttpListener {
  const server = Deno.serve({
    hostname: options.hostname,
    port: options.port,
    // Deno prints "Listening on ..." to stdout by default; ahma logs through its Logger instead.
    onListen: () => {},
  }, handler);
  const { hostname, port } = server.addr;
  let stopped: Promise<void> | undefined;
  const shutdown = (graceMs = 2_000) => {
    stopped ??= (async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((resolve) => timer = setTimeout(resolve, graceMs));
      await Promise.race([server.shutdown(), grace]);
      clearTimeout(timer);
    })();
    return stopped;
  };
  return { hostname, port, shutdown, [Symbol.asyncDispose]: () => shutdown() };
}
