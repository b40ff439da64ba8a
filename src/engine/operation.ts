import type { ToolRunResult } from "./engine.ts";

/** Where an operation is in its life. */
export type OperationState = "running" | "completed" | "failed" | "cancelled" | "timed_out";

/** One call of a tool, sync or background, tracked from start to finish. */
export interface Operation {
  id: string;
  toolName: string;
  /** The command line (or sequence name) for status listings. */
  command: string;
  state: OperationState;
  startedAt: number;
  finishedAt: number | undefined;
  /** Set once finished. */
  run: ToolRunResult | undefined;
  /** Why it failed to run at all (a refused argument, say); set once finished. */
  error: string | undefined;
  /** Set by cancel. */
  cancelReason: string | undefined;
  /** Runs in the background (the caller did not wait). */
  background: boolean;
}

/** True once an operation can change no more. */
export function isFinished(operation: Operation): boolean {
  return operation.state !== "running";
}
