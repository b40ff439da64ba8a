import type { Server } from "@modelcontextprotocol/sdk/server";
// @ts-types="@modelcontextprotocol/sdk/types"
import type {
  CallToolRequest,
  CallToolResult,
  CreateTaskResult,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import {
  type Engine,
  type Operation,
  type OperationRegistry,
  type PreparedCall,
  resolveExecutionMode,
  type ToolSpec,
} from "../engine/mod.ts";
import type { BackgroundDelivery, ProgressChannel } from "./background_delivery.ts";
import type { OperationTaskStore } from "./operation_task_store.ts";
import { type ClientLogLevel, liveOutput } from "./live_output.ts";
import { renderRun } from "./tool_result_text.ts";

/** Told to the agent on tools that run in the background by default. */
const BACKGROUND_NOTE =
  "Runs in the background: returns an operation_id at once; carry on, the result comes with your next Ahama response, or call await.";

/** What a call handler gets from the SDK. */
type RequestExtra = Parameters<Parameters<Server["setRequestHandler"]>[1]>[1];

/** Everything a tools/call of an engine tool needs from the session. */
export interface EngineCallContext {
  registry: OperationRegistry;
  delivery: BackgroundDelivery;
  taskStore: OperationTaskStore;
  asyncByDefault: boolean;
  logLevel: ClientLogLevel;
}

/** The MCP tool of a spec: schema, annotations, and task support for background-capable tools. */
export function toMcpTool(spec: ToolSpec, options: { asyncByDefault: boolean }): Tool {
  const background = resolveExecutionMode(spec, undefined, options) === "async";
  const tool: Tool = {
    name: spec.name,
    description: background ? `${spec.description}. ${BACKGROUND_NOTE}` : spec.description,
    inputSchema: spec.inputSchema,
  };
  if (Object.keys(spec.annotations).length > 0) tool.annotations = spec.annotations;
  if (spec.forceSynchronous !== true) tool.execution = { taskSupport: "optional" };
  return tool;
}

/**
 * Runs a tools/call of an engine tool: sync (waiting, cancellable by notifications/cancelled),
 * in the background (answering at once with the operation id), or as an MCP task. A refused
 * call or a failed command is a result with `isError: true`, never a protocol error.
 */
export async function callEngineTool(
  engine: Engine,
  params: CallToolRequest["params"],
  extra: RequestExtra,
  context: EngineCallContext,
): Promise<CallToolResult | CreateTaskResult> {
  const args = params.arguments ?? {};
  let call: PreparedCall;
  try {
    call = await engine.prepare(params.name, args);
  } catch (error) {
    return {
      content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }],
      isError: true,
    };
  }
  const { registry, delivery } = context;
  if (params.task && call.spec.forceSynchronous !== true) {
    return await startTask(call, params.task.ttl, extra, context);
  }
  if (resolveExecutionMode(call.spec, args.execution_mode, context) === "sync") {
    const onOutput = liveOutput(extra, {
      debugLogging: context.logLevel.wants("debug"),
      logger: call.spec.name,
    });
    const { done } = registry.start(call, {
      signal: extra.signal,
      ...(onOutput ? { onOutput } : {}),
    });
    return operationResult(await done);
  }
  const token = extra._meta?.progressToken;
  const channel: ProgressChannel | undefined = token === undefined
    ? undefined
    : { token, count: 0 };
  const { operation } = registry.start(call, {
    background: true,
    ...(channel ? { onOutput: delivery.progressReporter(channel) } : {}),
  });
  delivery.track(operation, channel);
  return startedResult(operation, call.spec.hint);
}

/** The result of a finished operation as the agent reads it. */
export function operationResult(operation: Operation): CallToolResult {
  const text = operation.run ? renderRun(operation.run) : operation.error ?? operation.state;
  return { content: [{ type: "text", text }], isError: operation.state !== "completed" };
}

function startedResult(operation: Operation, hint: string | undefined): CallToolResult {
  const lines = [
    `Started ${operation.id} in the background: ${operation.command}`,
    "Carry on with other work. The result arrives as a notification and at the start of your next Ahama tool response; " +
    `to wait for it, call await {"operation_ids":["${operation.id}"]}.`,
  ];
  if (hint) lines.push(`Hint: ${hint}`);
  return {
    content: [{ type: "text", text: lines.join("\n") }],
    structuredContent: {
      operation_id: operation.id,
      status: "started",
      tool: operation.toolName,
      command: operation.command,
    },
  };
}

async function startTask(
  call: PreparedCall,
  ttl: number | undefined,
  extra: RequestExtra,
  context: EngineCallContext,
): Promise<CreateTaskResult> {
  const store = extra.taskStore;
  if (!store) throw new TypeError("Cannot create a task: the session has no task store");
  const task = await store.createTask({ ttl: ttl ?? 3_600_000, pollInterval: 500 });
  const { operation, done } = context.registry.start(call);
  context.taskStore.link(task.taskId, operation.id);
  done
    .then((finished) =>
      store.storeTaskResult(
        task.taskId,
        finished.state === "completed" ? "completed" : "failed",
        operationResult(finished),
      )
    )
    // A task cancelled by the client is already terminal; its late result has nowhere to go.
    .catch(() => {});
  return { task };
}
