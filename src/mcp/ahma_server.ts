import { Server } from "@modelcontextprotocol/sdk/server";
// The SDK's "./*" export maps "x.js" to a missing "x.js.d.ts"; this names the real types.
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { type DoctorCheck, type Engine, OperationRegistry } from "../engine/mod.ts";
import { callDoctorTool, DOCTOR_TOOL } from "./doctor_tool.ts";
import { BackgroundDelivery } from "./background_delivery.ts";
import { listOutputResources, readOutputResource } from "./output_resources.ts";
import { callOperationTool, isOperationTool, OPERATION_TOOLS } from "./operation_tools.ts";
import { OperationTaskStore } from "./operation_task_store.ts";
import { callEngineTool, toMcpTool } from "./engine_tools.ts";
import { ClientLogLevel } from "./live_output.ts";

/** Options for {@linkcode createAhmaSession}. */
export interface AhmaSessionOptions {
  /** Name and version the server reports. */
  serverInfo: { name: string; version: string };
  /** Sent to the client as the server's `instructions`. */
  instructions?: string;
  /** `--async`: calls run in the background unless a tool forces sync. Default: false. */
  asyncByDefault?: boolean;
  /** Characters of output a response carries before cutting. Default: DEFAULT_OUTPUT_CAP. */
  outputCap?: number;
  /** Runs the setup checks of the built-in `doctor` tool; without it the tool is not listed. */
  doctor?: () => Promise<DoctorCheck[]>;
}

/** One MCP session: the SDK server, its operations, and how to end it. */
export interface AhmaSession {
  server: Server;
  registry: OperationRegistry;
  /** Cancels running operations and removes their spooled output. */
  close(): Promise<void>;
}

/**
 * Builds the MCP server every transport serves, with its own operations. It uses the SDK's
 * low-level `Server`, which the SDK marks deprecated in favour of `McpServer`: `McpServer` wants
 * each tool's schema as Zod at build time, and ahma's schemas are JSON read at run time.
 */
export function createAhmaSession(engine: Engine, options: AhmaSessionOptions): AhmaSession {
  const { asyncByDefault = false, doctor } = options;
  const builtins = doctor ? [...OPERATION_TOOLS, DOCTOR_TOOL] : OPERATION_TOOLS;
  const registry = new OperationRegistry(options.outputCap ? { outputCap: options.outputCap } : {});
  const taskStore = new OperationTaskStore(registry);
  const server = new Server(options.serverInfo, {
    capabilities: {
      tools: { listChanged: false },
      logging: {},
      resources: { listChanged: false },
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    },
    taskStore,
    ...(options.instructions ? { instructions: options.instructions } : {}),
  });
  const logLevel = new ClientLogLevel(server);
  const delivery = new BackgroundDelivery(server, registry, logLevel);
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...engine.tools.map((spec) => toMcpTool(spec, { asyncByDefault })), ...builtins],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    const result = doctor && name === DOCTOR_TOOL.name
      ? await callDoctorTool(doctor)
      : isOperationTool(name)
      ? await callOperationTool(name, args, { registry, delivery, signal: extra.signal })
      : await callEngineTool(engine, request.params, extra, {
        registry,
        delivery,
        taskStore,
        asyncByDefault,
        logLevel,
      });
    return "task" in result ? result : withNotes(result, delivery.takeNotes());
  });
  server.setRequestHandler(
    ListResourcesRequestSchema,
    () => ({ resources: listOutputResources(registry) }),
  );
  server.setRequestHandler(
    ReadResourceRequestSchema,
    async (request) => await readOutputResource(registry, request.params.uri),
  );
  return {
    server,
    registry,
    async close() {
      delivery.close();
      await registry.close();
    },
  };
}

/** Puts the notes on finished background operations before a response's own content. */
function withNotes(result: CallToolResult, notes: string[]): CallToolResult {
  if (notes.length === 0) return result;
  return {
    ...result,
    content: [...notes.map((note) => ({ type: "text" as const, text: note })), ...result.content],
  };
}
