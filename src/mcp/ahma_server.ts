import { Server } from "@modelcontextprotocol/sdk/server";
// The SDK's "./*" export maps "types.js" to a missing "types.js.d.ts"; this names the real types.
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { type Engine, succeeded, type ToolSpec } from "../engine/mod.ts";
import { renderRun } from "./tool_result_text.ts";

/** Options for {@linkcode createAhmaServer}. */
export interface AhmaServerOptions {
  /** Name and version the server reports. */
  serverInfo: { name: string; version: string };
  /** Sent to the client as the server's `instructions`. */
  instructions?: string;
}

/**
 * Builds the one MCP server every transport serves. It uses the SDK's low-level `Server`, which
 * the SDK marks deprecated in favour of `McpServer`: `McpServer` wants each tool's schema as Zod
 * at build time, and ahma's schemas are JSON read from tool files at run time.
 */
export function createAhmaServer(engine: Engine, options: AhmaServerOptions): Server {
  const server = new Server(options.serverInfo, {
    capabilities: { tools: { listChanged: false }, logging: {} },
    ...(options.instructions ? { instructions: options.instructions } : {}),
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: engine.tools.map(toMcpTool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    return await callTool(engine, name, args, extra.signal);
  });
  return server;
}

/** Runs a call; a refused argument or a failed command becomes `isError: true`, never a throw. */
async function callTool(
  engine: Engine,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<CallToolResult> {
  try {
    const run = await engine.call(name, args, { signal });
    return { content: [{ type: "text", text: renderRun(run) }], isError: !succeeded(run) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { content: [{ type: "text", text: message }], isError: true };
  }
}

function toMcpTool(spec: ToolSpec): Tool {
  const tool: Tool = {
    name: spec.name,
    description: spec.description,
    inputSchema: spec.inputSchema,
  };
  if (Object.keys(spec.annotations).length > 0) tool.annotations = spec.annotations;
  return tool;
}
