// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { type DoctorCheck, renderDoctorReport } from "../engine/mod.ts";

/** The built-in `doctor` tool: checks the setup and says how to fix what is broken. */
export const DOCTOR_TOOL: Tool = {
  name: "doctor",
  description:
    "Check Ahama's setup: runtime, sandbox (with a real probe), scope, tool files, and which tool commands are installed; each problem comes with its fix.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  annotations: { readOnlyHint: true, idempotentHint: true },
};

/** Runs the checks and renders the report; `isError` when something is broken. */
export async function callDoctorTool(
  doctor: () => Promise<DoctorCheck[]>,
): Promise<CallToolResult> {
  const checks = await doctor();
  return {
    content: [{ type: "text", text: renderDoctorReport(checks) }],
    isError: !checks.every((check) => check.ok),
  };
}
