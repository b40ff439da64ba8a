// @ts-types="@modelcontextprotocol/sdk/types"
import {
  ErrorCode,
  McpError,
  type ReadResourceResult,
  type Resource,
} from "@modelcontextprotocol/sdk/types.js";
import type { OperationRegistry } from "../engine/mod.ts";
import { outputUri } from "./operation_text.ts";

const OUTPUT_URI = /^ahma:\/\/operations\/([^/]+)\/output$/;

/** The whole outputs kept for operations whose responses were cut. */
export function listOutputResources(registry: OperationRegistry): Resource[] {
  return registry.list()
    .filter((operation) => registry.spool.has(operation.id))
    .map((operation) => ({
      uri: outputUri(operation.id),
      name: `${operation.id} output`,
      description: `Whole output of ${operation.command}`,
      mimeType: "text/plain",
    }));
}

/** Reads `ahma://operations/{id}/output`. */
export async function readOutputResource(
  registry: OperationRegistry,
  uri: string,
): Promise<ReadResourceResult> {
  const id = OUTPUT_URI.exec(uri)?.[1];
  const text = id ? await registry.spool.read(id) : undefined;
  if (text === undefined) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Cannot read "${uri}": no such output; list the resources to see what is kept`,
    );
  }
  return { contents: [{ uri, mimeType: "text/plain", text }] };
}
