/** Transports: move MCP messages between a client and the server; they know nothing of tools. */
export { serveStdio, type StdioOptions } from "./stdio.ts";
