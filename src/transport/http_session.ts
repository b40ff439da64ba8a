// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/**
 * What serves one MCP session behind its HTTP transport: the SDK `Server` of the shared core, or
 * a proxy to a per-session child process. The transport side knows nothing else about it.
 */
export interface SessionBackend {
  /** Takes over the session's transport (installs its callbacks and starts it). */
  connect(transport: Transport): Promise<void>;
  /** Ends the session's work: operations cancelled, child processes gone. */
  close(): Promise<void>;
}

/** What a backend knows of, and may do to, its own session. */
export interface SessionContext {
  /** The `Mcp-Session-Id` (or legacy `sessionId`) of the session. */
  readonly id: string;
  /** Ends the session for good; its later requests are refused with 403 and this reason. */
  forbid(reason: string): void;
}

/** Builds the backend of a new session. */
export type SessionOpener = (context: SessionContext) => SessionBackend | Promise<SessionBackend>;
