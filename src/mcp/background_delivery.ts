import type { Server } from "@modelcontextprotocol/sdk/server";
import { type Operation, type OperationRegistry } from "../engine/mod.ts";
import type { ClientLogLevel } from "./live_output.ts";
import { renderFinishedNote, renderOperation } from "./operation_text.ts";
import { throttleOutput } from "./output_throttle.ts";

/** A client's progress token, as MCP defines it. */
export type ProgressToken = string | number;

/** The progress notifications of one background call: its token and how far it has counted. */
export interface ProgressChannel {
  token: ProgressToken;
  /** Output lines seen so far; progress values must only grow. */
  count: number;
}

/**
 * Delivers background results on every channel a client may read: progress on the call's
 * token (throttled while running, the whole result at the end), a log message, and a note at
 * the start of the session's next tool response. `await` takes results out of the note queue.
 */
export class BackgroundDelivery {
  readonly #server: Server;
  readonly #undelivered = new Map<string, Operation>();
  readonly #progress = new Map<string, ProgressChannel>();
  readonly #unsubscribe: () => void;

  readonly #logLevel: ClientLogLevel;

  constructor(server: Server, registry: OperationRegistry, logLevel: ClientLogLevel) {
    this.#server = server;
    this.#logLevel = logLevel;
    this.#unsubscribe = registry.onFinished((operation) => this.#finished(operation));
  }

  /** An output listener sending throttled progress on a channel, with the new output. */
  progressReporter(channel: ProgressChannel): (text: string) => void {
    return throttleOutput(
      channel,
      (lines, text) => this.#notifyProgress(channel.token, lines, text),
    );
  }

  /** Remembers a background operation so its result is delivered when it finishes. */
  track(operation: Operation, channel: ProgressChannel | undefined): void {
    if (channel) this.#progress.set(operation.id, channel);
  }

  /** Notes on background operations finished since the previous call; each is given once. */
  takeNotes(): string[] {
    const notes = [...this.#undelivered.values()].map(renderFinishedNote);
    this.#undelivered.clear();
    return notes;
  }

  /** Ids of finished background operations whose results were not given yet. */
  undelivered(): string[] {
    return [...this.#undelivered.keys()];
  }

  /** Marks operations as delivered (their results were returned by `await`). */
  delivered(ids: string[]): void {
    for (const id of ids) this.#undelivered.delete(id);
  }

  /** Stops listening to the registry. */
  close(): void {
    this.#unsubscribe();
  }

  #finished(operation: Operation): void {
    if (!operation.background) return;
    this.#undelivered.set(operation.id, operation);
    const text = renderOperation(operation);
    const channel = this.#progress.get(operation.id);
    this.#progress.delete(operation.id);
    if (channel) {
      const last = channel.count + 1;
      this.#notifyProgress(channel.token, last, text, last);
    }
    this.#server
      .sendLoggingMessage({
        level: "info",
        logger: "ahma",
        data: `Finished in the background: ${text}`,
      })
      .catch(() => {});
  }

  #notifyProgress(token: ProgressToken, progress: number, message: string, total?: number): void {
    this.#server
      .notification({
        method: "notifications/progress",
        params: { progressToken: token, progress, message, ...(total ? { total } : {}) },
      })
      .catch(() => {});
  }
}
