import type { CommandResult, StepResult, ToolRunResult } from "../engine/mod.ts";

/** Renders a run as the text an agent reads: output first, then how it ended. */
export function renderRun(run: ToolRunResult): string {
  if (run.kind === "command") return renderCommand(run.result);
  const total = run.steps.length + run.skipped.length;
  const parts = run.steps.map((step, index) => renderStep(step, index + 1, total));
  if (run.skipped.length > 0) {
    parts.push(`[sequence stopped at the first failure; not run: ${run.skipped.join(", ")}]`);
  }
  return parts.join("\n\n");
}

/** Renders one command's output followed by a one-line trailer. */
export function renderCommand(result: CommandResult): string {
  const output = result.output === "" || result.output.endsWith("\n")
    ? result.output
    : `${result.output}\n`;
  return `${output}[${describeEnd(result)}]`;
}

/** Says how a command ended: `exit code 0 after 12 ms`, `timed out after 5 s ...`. */
export function describeEnd(result: CommandResult): string {
  const duration = formatDuration(result.durationMs);
  switch (result.end) {
    case "timed_out":
      return `timed out after ${duration}: the command and its child processes were killed`;
    case "cancelled":
      return `cancelled after ${duration}: the command and its child processes were killed`;
    case "exited":
      return result.exitCode === null
        ? `killed by a signal after ${duration}`
        : `exit code ${result.exitCode} after ${duration}`;
  }
}

function renderStep(step: StepResult, number: number, total: number): string {
  return `── step ${number}/${total}: ${step.name}\n${renderCommand(step.result)}`;
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
