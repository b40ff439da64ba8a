/** Transports: move MCP messages between a client and the server; they know nothing of tools. */
export { serveStdio, type StdioOptions } from "./stdio.ts";
export {
  DEFAULT_IDLE_TIMEOUT_SECONDS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_SESSIONS,
  HTTP_PATHS,
  McpHttpHandler,
  type McpHttpHandlerOptions,
} from "./http_handler.ts";
export { guardRequest, isLoopbackHost, type RequestGuardOptions } from "./http_guard.ts";
export {
  DEFAULT_HTTP_HOST,
  DEFAULT_HTTP_PORT,
  type HttpListener,
  listenHttp,
  type ListenHttpOptions,
} from "./http_listener.ts";
export type { SessionBackend, SessionContext, SessionOpener } from "./http_session.ts";
export { BoundedEventStore, DEFAULT_EVENT_STORE_LIMIT } from "./bounded_event_store.ts";
export { LegacySseTransport } from "./legacy_sse_transport.ts";
export { SessionIsolation } from "./session_isolation.ts";
export type { ServerIdentity } from "./server_identity.ts";
export type { ChildCommand } from "./stdio_child.ts";
export type { TransportLogger } from "./transport_logger.ts";
