import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's "./*" export maps "x.js" to a missing "x.js.d.ts"; these name the real types.
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/client/sse"
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { Tool } from "@modelcontextprotocol/sdk/types.js";

/** Which server to ask: an HTTP URL, or a command to start over stdio. */
export type ServerTarget = { url: string } | { command: string; args: string[] };

/** Options for {@linkcode listServerTools}. */
export interface ListToolsOptions {
  /** Sent as `Authorization: Bearer` to an HTTP server. */
  bearerToken?: string;
  /** Give up after this many milliseconds. Default: 30 000. */
  timeoutMs?: number;
}

/**
 * Connects to any MCP server and returns every tool it lists, following pagination. An HTTP
 * server is tried with Streamable HTTP first, then the legacy SSE transport.
 */
export async function listServerTools(
  target: ServerTarget,
  options: ListToolsOptions = {},
): Promise<Tool[]> {
  const { bearerToken, timeoutMs = 30_000 } = options;
  if ("command" in target) {
    return await withClient(new StdioClientTransport({ ...target, stderr: "inherit" }), timeoutMs);
  }
  const url = new URL(target.url);
  const requestInit = bearerToken ? { headers: { Authorization: `Bearer ${bearerToken}` } } : {};
  try {
    return await withClient(new StreamableHTTPClientTransport(url, { requestInit }), timeoutMs);
  } catch (streamableError) {
    try {
      return await withClient(new SSEClientTransport(url, { requestInit }), timeoutMs);
    } catch {
      throw streamableError;
    }
  }
}

async function withClient(
  transport: StdioClientTransport | StreamableHTTPClientTransport | SSEClientTransport,
  timeoutMs: number,
): Promise<Tool[]> {
  const client = new Client({ name: "ahma-list-tools", version: "1.0.0" });
  try {
    await client.connect(transport, { timeout: timeoutMs });
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  } finally {
    await client.close();
  }
}

/** Tools as text: name, one-line description, then one line per parameter. */
export function renderToolList(tools: Tool[]): string {
  return tools.map((tool) => {
    const description = (tool.description ?? "").split("\n")[0] ?? "";
    const properties = tool.inputSchema.properties ?? {};
    const required = new Set(tool.inputSchema.required ?? []);
    const parameters = Object.entries(properties).map(([name, schema]) => {
      const { type, description: about } = schema as { type?: unknown; description?: unknown };
      const mark = required.has(name) ? " (required)" : "";
      return `    ${name}: ${String(type ?? "any")}${mark}${
        about ? ` — ${String(about).split("\n")[0]}` : ""
      }`;
    });
    return [`${tool.name}: ${description}`, ...parameters].join("\n");
  }).join("\n\n");
}
