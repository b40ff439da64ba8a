// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  ErrorCode,
  type InitializeRequest,
  isInitializeRequest,
  isJSONRPCNotification,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import type { SessionBackend, SessionContext } from "./http_session.ts";
import { ChildLink } from "./child_link.ts";
import { RootRequester } from "./root_requester.ts";
import { initializeResult, type ServerIdentity } from "./server_identity.ts";
import type { ChildCommand } from "./stdio_child.ts";
import type { TransportLogger } from "./transport_logger.ts";

/** What every isolated session shares. */
export interface IsolatedSessionOptions {
  /** What the proxy answers `initialize` with, before any child exists. */
  identity: ServerIdentity;
  /** The argv of the child whose sandbox scope is `root`. */
  childCommand: (root: string) => ChildCommand;
  /** Gets +1 when a child starts and -1 when it is gone. */
  countChild?: (delta: number) => void;
  logger?: TransportLogger | undefined;
}

/** Where a session stands; only `ready` forwards to a child. */
type Phase =
  | { kind: "new" }
  | { kind: "rootless" }
  | { kind: "starting"; root: string; link: ChildLink }
  | { kind: "ready"; root: string; link: ChildLink }
  | { kind: "failed"; reason: string }
  | { kind: "closed" };

/**
 * One MCP session served by its own `ahma --mode stdio` child, sandboxed to the session's first
 * root. The proxy answers `initialize` itself, asks the client for its roots with the first
 * request, starts the child, replays the client's initialize to it, then passes messages both
 * ways unchanged. A child that dies fails its pending requests and is replaced.
 */
export class IsolatedSession implements SessionBackend {
  readonly #context: SessionContext;
  readonly #options: IsolatedSessionOptions;
  readonly #roots: RootRequester;
  readonly #waiting: JSONRPCMessage[] = [];
  #transport: Transport | undefined;
  #initialize: InitializeRequest | undefined;
  #phase: Phase = { kind: "new" };
  #closing: Promise<void> | undefined;

  constructor(context: SessionContext, options: IsolatedSessionOptions) {
    this.#context = context;
    this.#options = options;
    this.#roots = new RootRequester((message, related) => this.#toClient(message, related));
  }

  /** Takes over the session's HTTP transport. */
  async connect(transport: Transport): Promise<void> {
    this.#transport = transport;
    const previousOnClose = transport.onclose;
    transport.onclose = () => {
      previousOnClose?.();
      void this.close();
    };
    transport.onmessage = (message) => this.#fromClient(message);
    await transport.start();
  }

  /** Ends the session: its child stops (killed after a grace period). Idempotent. */
  close(): Promise<void> {
    // The transport's onclose and the session table both close it; both must wait for the child.
    this.#closing ??= (async () => {
      const phase = this.#phase;
      this.#phase = { kind: "closed" };
      this.#roots.close();
      if (phase.kind === "starting" || phase.kind === "ready") await phase.link.stop();
    })();
    return this.#closing;
  }

  #fromClient(message: JSONRPCMessage): void {
    if (this.#phase.kind === "closed") return;
    if (isJSONRPCRequest(message)) return this.#request(message);
    if (isJSONRPCNotification(message)) {
      if (message.method === "notifications/initialized") return;
      if (message.method === "notifications/roots/list_changed") return this.#rootsChanged();
    } else if (this.#roots.answer(message)) return;
    this.#toChild(message);
  }

  #request(request: JSONRPCRequest): void {
    if (isInitializeRequest(request)) {
      if (this.#phase.kind !== "new") return this.#fail(request.id, "Already initialized");
      this.#initialize = request;
      this.#phase = { kind: "rootless" };
      this.#reply(request.id, initializeResult(this.#options.identity, request.params));
      return;
    }
    // Answered here so a client can check the session even while its child (re)starts.
    if (request.method === "ping") return this.#reply(request.id, {});
    const phase = this.#phase;
    if (phase.kind === "failed") return this.#fail(request.id, phase.reason);
    if (phase.kind !== "rootless") return this.#toChild(request);
    if (this.#initialize?.params.capabilities.roots === undefined) {
      return this.#fail(request.id, NO_ROOTS_CAPABILITY);
    }
    this.#waiting.push(request);
    if (this.#roots.asking) return;
    void this.#roots.firstRoot(request.id).then(
      (root) => this.#start(root),
      (error: Error) => this.#giveUp(error.message),
    );
  }

  #rootsChanged(): void {
    const phase = this.#phase;
    if (phase.kind !== "starting" && phase.kind !== "ready") return;
    this.#context.forbid(
      `the client's roots changed after the session was fixed to "${phase.root}"; start a new session for the new root`,
    );
  }

  #start(root: string): void {
    if (this.#phase.kind !== "rootless" || !this.#initialize) return;
    const link: ChildLink = new ChildLink(root, this.#initialize, {
      ...this.#options,
      toClient: (message, related) => this.#toClient(message, related),
      failRequest: (id, reason) => this.#fail(id, reason),
      onReady: () => this.#ready(root, link),
      onGiveUp: (reason) => this.#giveUp(reason),
    });
    this.#phase = { kind: "starting", root, link };
    link.start();
  }

  #ready(root: string, link: ChildLink): void {
    if (this.#phase.kind === "closed") return void link.stop();
    this.#phase = { kind: "ready", root, link };
    for (const message of this.#waiting.splice(0)) link.forward(message);
  }

  #giveUp(reason: string): void {
    if (this.#phase.kind === "closed") return;
    this.#phase = { kind: "failed", reason };
    this.#options.logger?.warn(`session ${this.#context.id}: ${reason}`);
    for (const message of this.#waiting.splice(0)) {
      if (isJSONRPCRequest(message)) this.#fail(message.id, reason);
    }
  }

  #toChild(message: JSONRPCMessage): void {
    const phase = this.#phase;
    if (phase.kind === "ready") phase.link.forward(message);
    else if (phase.kind === "starting" || phase.kind === "rootless") this.#waiting.push(message);
    else if (isJSONRPCRequest(message) && phase.kind === "failed") {
      this.#fail(message.id, phase.reason);
    } else if (isJSONRPCRequest(message) && phase.kind === "new") {
      this.#fail(message.id, "Cannot answer before initialize: send initialize first");
    }
  }

  #toClient(message: JSONRPCMessage, relatedRequestId?: RequestId): void {
    const transport = this.#transport;
    if (!transport || this.#phase.kind === "closed") return;
    const options = relatedRequestId === undefined ? {} : { relatedRequestId };
    transport.send(message, options).catch((error) =>
      // The client's stream went away; a response it never reads is dropped.
      this.#options.logger?.debug(`session ${this.#context.id}: undelivered message: ${error}`)
    );
  }

  #reply(id: RequestId, result: Record<string, unknown>): void {
    this.#toClient({ jsonrpc: "2.0", id, result });
  }

  #fail(id: RequestId, message: string): void {
    this.#toClient({ jsonrpc: "2.0", id, error: { code: ErrorCode.InternalError, message } });
  }
}

/** Said to a client that cannot tell which directory the session may use. */
const NO_ROOTS_CAPABILITY =
  "Cannot run tools in this isolated session: the client did not declare the roots capability, so ahma cannot tell which directory to confine it to; use a client that lists its workspace as a root";
