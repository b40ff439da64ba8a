import process from "node:process";
// The SDK's "./*" export maps "x.js" to a missing "x.js.d.ts"; this names the real types.
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Server } from "@modelcontextprotocol/sdk/server";

/** Options for {@linkcode serveStdio}. */
export interface StdioOptions {
  /** Called for transport faults such as a malformed message; the server keeps running. */
  onError?: (error: Error) => void;
}

/**
 * Serves one MCP server over stdin/stdout until stdin closes. stdout carries protocol messages
 * only; a malformed line is reported through `onError` and skipped.
 */
export async function serveStdio(server: Server, options: StdioOptions = {}): Promise<void> {
  const transport = new StdioServerTransport(process.stdin, process.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once("end", () => void server.close());
  });
  server.onerror = (error) => options.onError?.(error);
  await server.connect(transport);
  await closed;
}
