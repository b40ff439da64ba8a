import type { SessionContext, SessionOpener } from "./http_session.ts";
import { IsolatedSession, type IsolatedSessionOptions } from "./isolated_session.ts";

/**
 * `--session-isolation`: opens every HTTP session as an {@linkcode IsolatedSession} with its own
 * child process, and counts the children alive for `/health`.
 */
export class SessionIsolation {
  readonly #options: Omit<IsolatedSessionOptions, "countChild">;
  #children = 0;

  constructor(options: Omit<IsolatedSessionOptions, "countChild">) {
    this.#options = options;
  }

  /** Child processes alive now, over all sessions. */
  get children(): number {
    return this.#children;
  }

  /** The session opener for {@linkcode McpHttpHandler}. */
  readonly open: SessionOpener = (context: SessionContext) =>
    new IsolatedSession(context, {
      ...this.#options,
      countChild: (delta) => this.#children += delta,
    });
}
