// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { SessionBackend } from "./http_session.ts";
import type { TransportLogger } from "./transport_logger.ts";

/** Sessions ended by a refusal (403) remembered, so their later requests say why. */
const FORBIDDEN_REMEMBERED = 1_024;

/** One live session: its transport, its backend, and when it last did anything. */
export interface LiveSession {
  id: string;
  kind: "streamable" | "legacy";
  transport: Transport;
  backend: SessionBackend;
}

/** What a session id names. */
export type SessionLookup =
  | { kind: "live"; session: LiveSession }
  | { kind: "forbidden"; reason: string }
  | { kind: "unknown" };

interface Activity {
  session: LiveSession;
  openResponses: number;
  lastActive: number;
}

/** Options for {@linkcode SessionTable}. */
export interface SessionTableOptions {
  /** A session with no request or stream open this long is closed. */
  idleTimeoutMs: number;
  logger?: TransportLogger | undefined;
}

/**
 * The live HTTP sessions: lookup by id, activity tracking (a session is busy while any of its
 * requests or streams is open), closing idle ones, and remembering refused ones.
 */
export class SessionTable {
  readonly #live = new Map<string, Activity>();
  readonly #forbidden = new Map<string, string>();
  readonly #idleTimeoutMs: number;
  readonly #logger: TransportLogger | undefined;
  #reaper: ReturnType<typeof setInterval> | undefined;

  constructor(options: SessionTableOptions) {
    if (!(options.idleTimeoutMs > 0)) {
      throw new RangeError(`Cannot time sessions out after ${options.idleTimeoutMs} ms: use > 0`);
    }
    this.#idleTimeoutMs = options.idleTimeoutMs;
    this.#logger = options.logger;
  }

  /** Number of live sessions. */
  get size(): number {
    return this.#live.size;
  }

  /** Adds a session that has just been created. */
  add(session: LiveSession): void {
    this.#live.set(session.id, { session, openResponses: 0, lastActive: Date.now() });
    // Checks a few times per timeout, so a session ends at most a quarter late.
    this.#reaper ??= setInterval(
      () => this.#reapIdle(),
      Math.max(50, Math.min(this.#idleTimeoutMs / 4, 15_000)),
    );
  }

  /** What a session id names: a live session, one ended by a refusal, or nothing. */
  lookup(id: string): SessionLookup {
    const activity = this.#live.get(id);
    if (activity) return { kind: "live", session: activity.session };
    const reason = this.#forbidden.get(id);
    return reason === undefined ? { kind: "unknown" } : { kind: "forbidden", reason };
  }

  /**
   * Marks the session busy until `response`'s body has been sent or abandoned; returns the
   * response to send instead of `response`.
   */
  track(id: string, response: Response): Response {
    const activity = this.#live.get(id);
    if (!activity) return response;
    activity.lastActive = Date.now();
    if (response.body === null) return response;
    activity.openResponses++;
    let open = true;
    const finish = () => {
      if (!open) return;
      open = false;
      activity.openResponses--;
      activity.lastActive = Date.now();
    };
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            finish();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          finish();
          controller.error(error);
        }
      },
      async cancel(reason) {
        finish();
        await reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  }

  /**
   * Ends a session: closes its transport (and so its streams) and its backend. With `forbidden`,
   * its later requests get 403 and that reason; otherwise they get 404.
   */
  async end(id: string, options: { forbidden?: string; why?: string } = {}): Promise<void> {
    const activity = this.#live.get(id);
    if (!activity) return;
    this.#live.delete(id);
    if (options.forbidden !== undefined) this.#remember(id, options.forbidden);
    if (this.#live.size === 0) this.#stopReaper();
    this.#logger?.info(`session ${id} ended${options.why ? `: ${options.why}` : ""}`);
    const { transport, backend } = activity.session;
    await transport.close().catch(() => {});
    await backend.close().catch((error) =>
      this.#logger?.warn(`session ${id}: cannot close cleanly: ${error}`)
    );
  }

  /** Ends every session (server shutdown). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#live.keys()].map((id) => this.end(id, { why: "server stopping" })));
    this.#stopReaper();
  }

  #reapIdle(): void {
    const now = Date.now();
    for (const [id, activity] of this.#live) {
      if (activity.openResponses === 0 && now - activity.lastActive >= this.#idleTimeoutMs) {
        void this.end(id, { why: `idle for ${Math.round(this.#idleTimeoutMs / 1000)} s` });
      }
    }
  }

  #remember(id: string, reason: string): void {
    this.#forbidden.set(id, reason);
    for (const oldest of this.#forbidden.keys()) {
      if (this.#forbidden.size <= FORBIDDEN_REMEMBERED) break;
      this.#forbidden.delete(oldest);
    }
  }

  #stopReaper(): void {
    clearInterval(this.#reaper);
    this.#reaper = undefined;
  }
}
