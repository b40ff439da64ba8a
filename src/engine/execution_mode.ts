import type { ToolSpec } from "./tool_spec.ts";

/** Whether a call waits for its result or runs in the background. */
export type ExecutionMode = "sync" | "async";

/**
 * Decides how a call runs, first rule winning: `force_synchronous: true` always waits; else the
 * call's `execution_mode`; else `force_synchronous: false` runs in the background; else
 * `--async`; else it waits.
 */
export function resolveExecutionMode(
  spec: Pick<ToolSpec, "forceSynchronous">,
  requested: unknown,
  options: { asyncByDefault?: boolean } = {},
): ExecutionMode {
  const { asyncByDefault = false } = options;
  if (spec.forceSynchronous === true) return "sync";
  if (requested === "sync" || requested === "async") return requested;
  if (spec.forceSynchronous === false) return "async";
  return asyncByDefault ? "async" : "sync";
}

/** True when some call of the tool may run in the background under these options. */
export function mayRunInBackground(spec: Pick<ToolSpec, "forceSynchronous">): boolean {
  return spec.forceSynchronous !== true;
}
