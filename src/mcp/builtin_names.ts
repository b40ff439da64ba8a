import { DOCTOR_TOOL } from "./doctor_tool.ts";
import { OPERATION_TOOLS } from "./operation_tools.ts";

/** Names of the tools the MCP layer adds itself; a tool file cannot take them. */
export const RESERVED_TOOL_NAMES: readonly string[] = [...OPERATION_TOOLS, DOCTOR_TOOL].map((
  tool,
) => tool.name);
