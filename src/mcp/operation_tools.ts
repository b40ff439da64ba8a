// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { isFinished, type OperationRegistry } from "../engine/mod.ts";
import type { BackgroundDelivery } from "./background_delivery.ts";
import { renderOperation, renderStatusLine } from "./operation_text.ts";

/** How long `await` waits when the call names no timeout. */
export const DEFAULT_AWAIT_SECONDS = 300;

/** The built-in tools that manage operations: await, status, cancel. */
export const OPERATION_TOOLS: Tool[] = [
  {
    name: "await",
    description:
      "Wait for background operations to finish and return their results. Without operation_ids: every running operation and every finished one whose result you have not seen.",
    inputSchema: {
      type: "object",
      properties: {
        operation_ids: {
          type: "array",
          items: { type: "string" },
          description: "Operations to wait for",
        },
        timeout_seconds: {
          type: "number",
          exclusiveMinimum: 0,
          description: `Stop waiting after this long (default ${DEFAULT_AWAIT_SECONDS})`,
        },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: "status",
    description: "List operations (or one) with state, elapsed time, exit code and command.",
    inputSchema: {
      type: "object",
      properties: { operation_id: { type: "string", description: "Only this operation" } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true },
  },
  {
    name: "cancel",
    description: "Cancel a running operation, killing its whole process tree.",
    inputSchema: {
      type: "object",
      properties: {
        operation_id: { type: "string", description: "The operation to cancel" },
        reason: { type: "string", description: "Why, for the record" },
      },
      required: ["operation_id"],
      additionalProperties: false,
    },
    annotations: { destructiveHint: false, idempotentHint: true },
  },
];

/** True when `name` is one of {@linkcode OPERATION_TOOLS}. */
export function isOperationTool(name: string): boolean {
  return OPERATION_TOOLS.some((tool) => tool.name === name);
}

/** Runs one of the operation tools. */
export async function callOperationTool(
  name: string,
  args: Record<string, unknown>,
  context: { registry: OperationRegistry; delivery: BackgroundDelivery; signal: AbortSignal },
): Promise<CallToolResult> {
  const { registry, delivery, signal } = context;
  switch (name) {
    case "await": {
      const ids = stringArray(args.operation_ids);
      const unknown = (ids ?? []).filter((id) => !registry.get(id));
      if (unknown.length > 0) {
        return text(
          `Cannot await ${unknown.join(", ")}: no such operation; call status to list them`,
          true,
        );
      }
      const seconds = typeof args.timeout_seconds === "number"
        ? args.timeout_seconds
        : DEFAULT_AWAIT_SECONDS;
      const pending = registry.list().filter((op) => !isFinished(op)).map((op) => op.id);
      const operations = await registry.wait(
        ids ?? [...delivery.undelivered(), ...pending],
        seconds * 1000,
        signal,
      );
      delivery.delivered(operations.filter(isFinished).map((operation) => operation.id));
      if (operations.length === 0) return text("No operations are running.");
      return text(operations.map(renderOperation).join("\n\n"));
    }
    case "status": {
      const id = typeof args.operation_id === "string" ? args.operation_id : undefined;
      const operations = id ? [registry.get(id)].filter((op) => op !== undefined) : registry.list();
      if (id && operations.length === 0) {
        return text(
          `Cannot find ${id}: no such operation; call status without an id to list them`,
          true,
        );
      }
      if (operations.length === 0) return text("No operations yet.");
      return text(operations.map(renderStatusLine).join("\n"));
    }
    default: {
      const id = String(args.operation_id);
      const operation = registry.get(id);
      if (!operation) {
        return text(`Cannot cancel ${id}: no such operation; call status to list them`, true);
      }
      const reason = typeof args.reason === "string" ? args.reason : undefined;
      if (!registry.cancel(id, reason)) {
        return text(`${id} has already finished: ${operation.state}`);
      }
      await registry.wait([id], 5_000);
      return text(`Cancelled ${id} (${operation.command}): ${operation.state}`);
    }
  }
}

function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.map(String) : undefined;
}

function text(message: string, isError = false): CallToolResult {
  return { content: [{ type: "text", text: message }], isError };
}
