// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/server/requestBody"
import { readRequestBody } from "@modelcontextprotocol/sdk/server/requestBody.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { BoundedEventStore, DEFAULT_EVENT_STORE_LIMIT } from "./bounded_event_store.ts";
import { guardRequest } from "./http_guard.ts";
import { jsonRpcErrorResponse } from "./http_responses.ts";
import type { SessionContext, SessionOpener } from "./http_session.ts";
import { type LiveSession, SessionTable } from "./http_session_table.ts";
import { LegacySseTransport } from "./legacy_sse_transport.ts";
import type { TransportLogger } from "./transport_logger.ts";

/** Largest request body accepted, in bytes; larger ones get 413. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Most sessions open at once; a new one beyond gets 503. */
export const DEFAULT_MAX_SESSIONS = 64;
/** Seconds a session may sit with no request or stream open before it is closed. */
export const DEFAULT_IDLE_TIMEOUT_SECONDS = 1_800;

/** The Streamable HTTP endpoint, the legacy SSE endpoints and the health endpoint. */
export const HTTP_PATHS = {
  mcp: "/mcp",
  sse: "/sse",
  messages: "/messages",
  health: "/health",
} as const;

/** Options for {@linkcode McpHttpHandler}. */
export interface McpHttpHandlerOptions {
  /** Every request must carry `Authorization: Bearer <authToken>`. Default: no token. */
  authToken?: string | undefined;
  /** Accept Host headers naming other machines (a non-loopback bind). Default: false. */
  allowAnyHost?: boolean;
  /** Default: DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** Default: DEFAULT_MAX_SESSIONS. */
  maxSessions?: number;
  /** Default: DEFAULT_IDLE_TIMEOUT_SECONDS. */
  idleTimeoutSeconds?: number;
  /** Events kept per session for resumed streams. Default: DEFAULT_EVENT_STORE_LIMIT. */
  eventStoreLimit?: number;
  /** Number of per-session child processes, reported by `/health`. Default: none. */
  countChildren?: () => number;
  logger?: TransportLogger | undefined;
}

/**
 * MCP over HTTP as one `fetch(request) => response` function: Streamable HTTP on `/mcp`, the
 * 2024-11-05 SSE transport on `/sse` + `/messages`, and `/health`. Each session gets its own
 * transport and a backend from `open`; the handler only moves messages.
 */
export class McpHttpHandler implements AsyncDisposable {
  readonly #open: SessionOpener;
  readonly #options: McpHttpHandlerOptions;
  readonly #table: SessionTable;
  readonly #maxBodyBytes: number;
  readonly #maxSessions: number;
  readonly #startedAt = Date.now();
  #opening = 0;
  #closed = false;

  constructor(open: SessionOpener, options: McpHttpHandlerOptions = {}) {
    const {
      maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
      maxSessions = DEFAULT_MAX_SESSIONS,
      idleTimeoutSeconds = DEFAULT_IDLE_TIMEOUT_SECONDS,
    } = options;
    if (!(maxSessions >= 1)) throw new RangeError(`Cannot allow ${maxSessions} sessions: use 1+`);
    this.#open = open;
    this.#options = options;
    this.#maxBodyBytes = maxBodyBytes;
    this.#maxSessions = maxSessions;
    this.#table = new SessionTable({
      idleTimeoutMs: idleTimeoutSeconds * 1000,
      logger: options.logger,
    });
  }

  /** Number of live sessions. */
  get sessions(): number {
    return this.#table.size;
  }

  /** Answers one HTTP request; never throws. */
  readonly fetch = async (request: Request): Promise<Response> => {
    try {
      return await this.#route(request);
    } catch (error) {
      this.#options.logger?.error(`HTTP ${request.method} ${request.url}: ${error}`);
      return jsonRpcErrorResponse(500, "Internal server error", { code: -32603 });
    }
  };

  /** Ends every session and refuses new ones. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#table.closeAll();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #route(request: Request): Promise<Response> {
    const refusal = guardRequest(request, this.#options);
    if (refusal) return refusal;
    const path = new URL(request.url).pathname;
    const route = `${request.method} ${path}`;
    if (route === `GET ${HTTP_PATHS.health}`) return this.#health();
    if (path === HTTP_PATHS.mcp) return await this.#streamable(request);
    if (route === `GET ${HTTP_PATHS.sse}`) return await this.#openLegacy();
    if (route === `POST ${HTTP_PATHS.messages}`) return await this.#legacyPost(request);
    return jsonRpcErrorResponse(404, `Not found: ${route}; MCP is served at ${HTTP_PATHS.mcp}`);
  }

  #health(): Response {
    return Response.json({
      status: "ok",
      sessions: this.#table.size,
      children: this.#options.countChildren?.() ?? 0,
      uptime_seconds: Math.round((Date.now() - this.#startedAt) / 1000),
    });
  }

  async #streamable(request: Request): Promise<Response> {
    const id = request.headers.get("mcp-session-id");
    let parsedBody: unknown;
    if (request.method === "POST") {
      const body = await this.#readJson(request);
      if (body instanceof Response) return body;
      parsedBody = body.json;
    }
    if (id === null) {
      if (request.method !== "POST" || !containsInitialize(parsedBody)) {
        return jsonRpcErrorResponse(
          400,
          "Bad Request: Mcp-Session-Id header is required; send initialize first to open a session",
        );
      }
      return await this.#openStreamable(request, parsedBody);
    }
    const found = this.#find(id, "streamable");
    if (found instanceof Response) return found;
    const transport = found.transport as WebStandardStreamableHTTPServerTransport;
    return this.#table.track(id, await transport.handleRequest(request, { parsedBody }));
  }

  async #openStreamable(request: Request, parsedBody: unknown): Promise<Response> {
    const id = crypto.randomUUID();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      eventStore: new BoundedEventStore(this.#options.eventStoreLimit ?? DEFAULT_EVENT_STORE_LIMIT),
      maxRequestBodySize: this.#maxBodyBytes,
    });
    const opened = await this.#openSession(id, "streamable", transport);
    if (opened) return opened;
    const response = await transport.handleRequest(request, { parsedBody });
    // A refused initialize (bad headers, bad version) leaves a transport with no session.
    if (transport.sessionId === undefined) {
      await this.#table.end(id, { why: "initialize refused" });
      return response;
    }
    return this.#table.track(id, response);
  }

  async #openLegacy(): Promise<Response> {
    const id = crypto.randomUUID();
    const transport = new LegacySseTransport(id, HTTP_PATHS.messages);
    const opened = await this.#openSession(id, "legacy", transport);
    if (opened) return opened;
    return this.#table.track(id, transport.response());
  }

  async #legacyPost(request: Request): Promise<Response> {
    const id = new URL(request.url).searchParams.get("sessionId");
    if (id === null) {
      return jsonRpcErrorResponse(400, "Bad Request: the sessionId query parameter is required");
    }
    const found = this.#find(id, "legacy");
    if (found instanceof Response) return found;
    const body = await this.#readJson(request);
    if (body instanceof Response) return body;
    const transport = found.transport as LegacySseTransport;
    return this.#table.track(id, transport.handlePost(body.json, request));
  }

  /** Creates a session's backend and connects it; returns a refusal if it cannot. */
  async #openSession(
    id: string,
    kind: LiveSession["kind"],
    transport: LiveSession["transport"],
  ): Promise<Response | undefined> {
    if (this.#closed) return jsonRpcErrorResponse(503, "Service Unavailable: server stopping");
    if (this.#table.size + this.#opening >= this.#maxSessions) {
      return jsonRpcErrorResponse(
        503,
        `Service Unavailable: ${this.#maxSessions} sessions are open; close one (DELETE) or retry later`,
        { headers: { "Retry-After": "5" } },
      );
    }
    this.#opening++;
    try {
      const context: SessionContext = {
        id,
        forbid: (reason) => void this.#table.end(id, { forbidden: reason, why: reason }),
      };
      const backend = await this.#open(context);
      const previousOnClose = transport.onclose;
      transport.onclose = () => {
        previousOnClose?.();
        void this.#table.end(id, { why: "closed by the client" });
      };
      this.#table.add({ id, kind, transport, backend });
      await backend.connect(transport).catch(async (error) => {
        await this.#table.end(id, { why: `cannot connect: ${error}` });
        throw error;
      });
    } finally {
      this.#opening--;
    }
    this.#options.logger?.info(`session ${id} opened (${kind})`);
    return undefined;
  }

  #find(id: string, kind: LiveSession["kind"]): LiveSession | Response {
    const found = this.#table.lookup(id);
    if (found.kind === "forbidden") return jsonRpcErrorResponse(403, `Forbidden: ${found.reason}`);
    if (found.kind === "unknown" || found.session.kind !== kind) {
      return jsonRpcErrorResponse(
        404,
        "Session not found: it ended or never existed; initialize a new session",
        { code: -32001 },
      );
    }
    return found.session;
  }

  async #readJson(request: Request): Promise<{ json: unknown } | Response> {
    const body = await readRequestBody(request, this.#maxBodyBytes);
    if (body.tooLarge) {
      return jsonRpcErrorResponse(
        413,
        `Payload Too Large: a request body must not exceed ${this.#maxBodyBytes} bytes`,
      );
    }
    try {
      return { json: JSON.parse(body.text) };
    } catch {
      return jsonRpcErrorResponse(400, "Parse error: the body is not JSON", { code: -32700 });
    }
  }
}

function containsInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
}
