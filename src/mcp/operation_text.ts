import type { Operation } from "../engine/mod.ts";
import { describeEnd, renderRun } from "./tool_result_text.ts";

/** Lines of output a finished-in-the-background note carries. */
const NOTE_TAIL_LINES = 8;

/** The URI of an operation's whole output. */
export function outputUri(id: string): string {
  return `ahma://operations/${id}/output`;
}

/** The full result of a finished operation, or its state while running. */
export function renderOperation(operation: Operation): string {
  const head = `${operation.id} ${operation.toolName}: ${operation.state}`;
  if (operation.run) return `${head}\n${renderRun(operation.run)}`;
  if (operation.error) return `${head}\n${operation.error}`;
  return `${head} for ${seconds(Date.now() - operation.startedAt)} (${operation.command})`;
}

/** One line per operation for `status`: id, state, elapsed time, exit code, command. */
export function renderStatusLine(operation: Operation): string {
  const elapsed = seconds((operation.finishedAt ?? Date.now()) - operation.startedAt);
  const exit = exitCodes(operation);
  return `${operation.id}  ${operation.state.padEnd(9)}  ${
    elapsed.padStart(7)
  }  ${exit}  ${operation.command}`;
}

/** The short note on a background operation that finished since the previous response. */
export function renderFinishedNote(operation: Operation): string {
  const ending = operation.run ? endings(operation) : operation.error ?? operation.state;
  const tail = lastLines(operation, NOTE_TAIL_LINES);
  const more = `the whole result: call await {"operation_ids":["${operation.id}"]}`;
  return [
    `[${operation.id} finished in the background: ${operation.command}: ${ending}]`,
    ...(tail ? [tail] : []),
    `[${more}]`,
  ].join("\n");
}

function endings(operation: Operation): string {
  const run = operation.run;
  if (!run) return operation.state;
  if (run.kind === "command") return describeEnd(run.result);
  const last = run.steps.at(-1);
  return `${operation.state} after ${run.steps.length} step(s)${
    last ? `; last: ${describeEnd(last.result)}` : ""
  }`;
}

function lastLines(operation: Operation, count: number): string {
  const run = operation.run;
  if (!run) return "";
  const output = run.kind === "command" ? run.result.output : run.steps.at(-1)?.result.output ?? "";
  return output.trimEnd().split("\n").slice(-count).join("\n");
}

function exitCodes(operation: Operation): string {
  const run = operation.run;
  if (!run) return "exit -";
  const results = run.kind === "command" ? [run.result] : run.steps.map((step) => step.result);
  return `exit ${results.map((result) => result.exitCode ?? "signal").join(",")}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
