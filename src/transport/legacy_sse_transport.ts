// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type MessageExtraInfo,
} from "@modelcontextprotocol/sdk/types.js";
import { jsonRpcErrorResponse } from "./http_responses.ts";

/** Milliseconds between SSE comments that keep proxies open and reveal a vanished client. */
export const SSE_KEEP_ALIVE_MS = 15_000;

/**
 * The HTTP+SSE transport of protocol 2024-11-05 on Web streams: `GET /sse` opens a stream whose
 * first event names the endpoint to POST messages to; every server message is a stream event.
 * The SDK's own SSEServerTransport needs Node's http objects, so ahma has this one.
 */
export class LegacySseTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  readonly sessionId: string;
  readonly #endpoint: string;
  readonly #encoder = new TextEncoder();
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  /** `endpoint` is the path clients POST to; the session id is added as `?sessionId=`. */
  constructor(sessionId: string, endpoint: string) {
    this.sessionId = sessionId;
    this.#endpoint = `${endpoint}?sessionId=${encodeURIComponent(sessionId)}`;
  }

  /** The response to `GET /sse`: the event stream, opened by the `endpoint` event. */
  response(): Response {
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
        this.#write(`event: endpoint\ndata: ${this.#endpoint}\n\n`);
        this.#keepAlive = setInterval(() => this.#write(": keepalive\n\n"), SSE_KEEP_ALIVE_MS);
      },
      cancel: () => void this.close(),
    });
    return new Response(stream, {
      headers: {
        "Content-Type": "text/event-stream",
        "Cache-Control": "no-cache, no-transform",
        "X-Accel-Buffering": "no",
      },
    });
  }

  /** Nothing to do: the stream opens with {@linkcode response}. */
  start(): Promise<void> {
    return Promise.resolve();
  }

  /** Sends one message as a `message` event on the stream. */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("Not connected: the SSE stream is closed"));
    this.#write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    return Promise.resolve();
  }

  /** Handles the parsed body of a POST to the endpoint: 202 once handed on, 400 if invalid. */
  handlePost(body: unknown, request: Request): Response {
    const messages = Array.isArray(body) ? body : [body];
    const parsed: JSONRPCMessage[] = [];
    for (const message of messages) {
      const result = JSONRPCMessageSchema.safeParse(message);
      if (!result.success) {
        return jsonRpcErrorResponse(400, "Invalid message: not a JSON-RPC 2.0 message", {
          code: -32700,
        });
      }
      parsed.push(result.data);
    }
    const requestInfo = { headers: Object.fromEntries(request.headers), url: new URL(request.url) };
    for (const message of parsed) this.onmessage?.(message, { requestInfo });
    return new Response("Accepted", { status: 202 });
  }

  /** Ends the stream; idempotent. */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    clearInterval(this.#keepAlive);
    try {
      this.#controller?.close();
    } catch {
      // Already closed by a cancelled stream.
    }
    this.onclose?.();
    return Promise.resolve();
  }

  #write(text: string): void {
    try {
      this.#controller?.enqueue(this.#encoder.encode(text));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      void this.close();
    }
  }
}
