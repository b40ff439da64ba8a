// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type InitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { type ChildCommand, StdioChild } from "./stdio_child.ts";
import type { TransportLogger } from "./transport_logger.ts";

/** Seconds a new child has to answer the replayed initialize. */
const CHILD_INITIALIZE_TIMEOUT_MS = 30_000;
/** Children in a row that may die before answering initialize before the session gives up. */
const MAX_FAILED_STARTS = 2;
/** Lines of a child's stderr kept to explain why it could not start. */
const STDERR_LINES_KEPT = 8;

/** What a {@linkcode ChildLink} needs from its session. */
export interface ChildLinkOptions {
  childCommand: (root: string) => ChildCommand;
  /** Sends a message to the client, on the stream of `relatedRequestId` when given. */
  toClient(message: JSONRPCMessage, relatedRequestId?: RequestId): void;
  /** Answers a client request with a JSON-RPC error. */
  failRequest(id: RequestId, reason: string): void;
  /** The first child has answered initialize. */
  onReady(): void;
  /** No child can be started; `reason` says why. */
  onGiveUp(reason: string): void;
  countChild?: ((delta: number) => void) | undefined;
  logger?: TransportLogger | undefined;
}

/**
 * The child process of one session and its replacements: starts it with the session's root,
 * replays the client's initialize, forwards messages, and when it dies fails the requests it
 * held at once and starts another. Messages sent while no child is ready wait for the next.
 */
export class ChildLink {
  readonly #root: string;
  readonly #initialize: InitializeRequest;
  readonly #options: ChildLinkOptions;
  /** Client requests the current child has not answered, by id. */
  readonly #pending = new Map<string, RequestId>();
  /** The request each progress token belongs to, so progress rides that request's stream. */
  readonly #progressOwner = new Map<string, RequestId>();
  readonly #held: JSONRPCMessage[] = [];
  readonly #stderrTail: string[] = [];
  #child: StdioChild | undefined;
  #initializeId = "";
  #ready = false;
  #everReady = false;
  #failedStarts = 0;
  #stopped = false;
  #starts = 0;

  constructor(root: string, initialize: InitializeRequest, options: ChildLinkOptions) {
    this.#root = root;
    this.#initialize = initialize;
    this.#options = options;
  }

  /** Starts a child and replays the client's initialize to it. */
  start(): void {
    if (this.#stopped) return;
    const child = new StdioChild(this.#options.childCommand(this.#root), {
      onMessage: (message) => this.#fromChild(child, message),
      onStderr: (line) => this.#log(child, line),
      onInvalid: (line) => this.#log(child, `not JSON-RPC on stdout: ${line}`),
    });
    this.#child = child;
    this.#ready = false;
    this.#options.countChild?.(1);
    this.#options.logger?.info(`isolated child ${child.pid} started for "${this.#root}"`);
    void child.status.then(() => this.#options.countChild?.(-1));
    void child.exited.then((status) => this.#exited(child, status));
    this.#initializeId = `ahma-initialize-${++this.#starts}`;
    const timer = setTimeout(() => {
      if (this.#child === child && !this.#ready) child.kill();
    }, CHILD_INITIALIZE_TIMEOUT_MS);
    void child.exited.then(() => clearTimeout(timer));
    this.#send(child, { ...this.#initialize, jsonrpc: "2.0", id: this.#initializeId });
  }

  /** Sends a client message to the child, or holds it until a child is ready. */
  forward(message: JSONRPCMessage): void {
    const child = this.#child;
    if (!child || !this.#ready) {
      this.#held.push(message);
      return;
    }
    if (isJSONRPCRequest(message)) {
      this.#pending.set(String(message.id), message.id);
      const token = message.params?._meta?.progressToken;
      if (token !== undefined) this.#progressOwner.set(String(token), message.id);
    }
    this.#send(child, message);
  }

  /** Stops the child for good (stdin closed, killed after a grace period). */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#child?.stop();
  }

  #fromChild(child: StdioChild, message: JSONRPCMessage): void {
    if (child !== this.#child) return;
    const isResponse = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    if (isResponse && message.id === this.#initializeId) return this.#initialized(child, message);
    if (isResponse) {
      this.#pending.delete(String(message.id));
      for (const [token, owner] of this.#progressOwner) {
        if (owner === message.id) this.#progressOwner.delete(token);
      }
      return this.#options.toClient(message);
    }
    const token = isJSONRPCNotification(message) ? message.params?.progressToken : undefined;
    const owner = token === undefined ? undefined : this.#progressOwner.get(String(token));
    // Other messages ride the stream of a request still open, which the client surely reads.
    this.#options.toClient(message, owner ?? this.#pending.values().next().value);
  }

  #initialized(child: StdioChild, message: JSONRPCMessage): void {
    if (isJSONRPCErrorResponse(message)) {
      this.#options.logger?.warn(`isolated child ${child.pid} refused initialize`);
      child.kill();
      return;
    }
    this.#send(child, { jsonrpc: "2.0", method: "notifications/initialized" });
    this.#ready = true;
    this.#failedStarts = 0;
    for (const held of this.#held.splice(0)) this.forward(held);
    if (!this.#everReady) {
      this.#everReady = true;
      this.#options.onReady();
    }
  }

  #exited(child: StdioChild, status: Deno.CommandStatus): void {
    if (child !== this.#child || this.#stopped) return;
    const how = status.signal
      ? `was killed by ${status.signal}`
      : `exited with code ${status.code}`;
    this.#options.logger?.warn(`isolated child ${child.pid} for "${this.#root}" ${how}`);
    for (const id of this.#pending.values()) {
      this.#options.failRequest(
        id,
        `The session's ahma process ${how} while handling this request; it is being restarted, so retry the call`,
      );
    }
    this.#pending.clear();
    this.#progressOwner.clear();
    if (!this.#ready && ++this.#failedStarts >= MAX_FAILED_STARTS) {
      const reason = `Cannot start the isolated ahma for "${this.#root}": it ${how}${
        this.#stderrTail.length > 0 ? `: ${this.#stderrTail.join(" | ")}` : ""
      }; check that the root is a directory ahma may use as its sandbox scope`;
      for (const held of this.#held.splice(0)) {
        if (isJSONRPCRequest(held)) this.#options.failRequest(held.id, reason);
      }
      this.#child = undefined;
      return this.#options.onGiveUp(reason);
    }
    this.start();
  }

  #send(child: StdioChild, message: JSONRPCMessage): void {
    // A failed write means the child is dying; its exit fails whatever it held.
    child.send(message).catch(() => {});
  }

  #log(child: StdioChild, line: string): void {
    this.#stderrTail.push(line);
    if (this.#stderrTail.length > STDERR_LINES_KEPT) this.#stderrTail.shift();
    this.#options.logger?.info(`[child ${child.pid}] ${line}`);
  }
}
