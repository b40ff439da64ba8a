import type { PreparedCall, ToolRunResult } from "./engine.ts";
import { isSuccess } from "./engine.ts";
import { isFinished, type Operation, type OperationState } from "./operation.ts";
import { cutMiddle, DEFAULT_OUTPUT_CAP } from "./output_cap.ts";
import { OutputSpool } from "./output_spool.ts";

/** Options for {@linkcode OperationRegistry}. */
export interface OperationRegistryOptions {
  /** Characters of output kept in a result; the rest goes to the spool. Default: DEFAULT_OUTPUT_CAP. */
  outputCap?: number;
  /** Finished operations kept; the oldest go first. Default: 200. */
  maxFinished?: number;
  /** Finished operations older than this are forgotten. Default: one hour. */
  maxAgeMs?: number;
}

/** Options for {@linkcode OperationRegistry.start}. */
export interface StartOptions {
  /** The caller does not wait for it. Default: false. */
  background?: boolean;
  /** Receives output as it arrives. */
  onOutput?: (text: string) => void;
  /** Aborting cancels the operation, as `cancel` does. */
  signal?: AbortSignal;
}

interface Entry {
  operation: Operation;
  controller: AbortController;
  done: Promise<Operation>;
}

/**
 * Every call, sync or background, as an operation: ids, state, results, waiting, cancelling,
 * and the whole output of long runs. Finished operations are kept within count and age limits.
 */
export class OperationRegistry implements AsyncDisposable {
  readonly spool = new OutputSpool();
  readonly #entries = new Map<string, Entry>();
  readonly #listeners = new Set<(operation: Operation) => void>();
  readonly #outputCap: number;
  readonly #maxFinished: number;
  readonly #maxAgeMs: number;
  #nextId = 1;

  constructor(options: OperationRegistryOptions = {}) {
    const { outputCap = DEFAULT_OUTPUT_CAP, maxFinished = 200, maxAgeMs = 3_600_000 } = options;
    if (!(outputCap >= 1024)) {
      throw new RangeError(`Cannot cap output at ${outputCap}: use 1024 or more`);
    }
    this.#outputCap = outputCap;
    this.#maxFinished = maxFinished;
    this.#maxAgeMs = maxAgeMs;
  }

  /** Starts a prepared call as a new operation; `done` resolves when it has finished. */
  start(
    call: PreparedCall,
    options: StartOptions = {},
  ): { operation: Operation; done: Promise<Operation> } {
    const { background = false, onOutput, signal } = options;
    const controller = new AbortController();
    signal?.addEventListener("abort", () => controller.abort(), { once: true });
    const operation: Operation = {
      id: `op_${this.#nextId++}`,
      toolName: call.spec.name,
      command: call.display,
      state: "running",
      startedAt: Date.now(),
      finishedAt: undefined,
      run: undefined,
      error: undefined,
      cancelReason: undefined,
      background,
    };
    const done = this.#finish(
      operation,
      call.run({ signal: controller.signal, ...(onOutput ? { onOutput } : {}) }),
    );
    this.#entries.set(operation.id, { operation, controller, done });
    return { operation, done };
  }

  /** The operation of that id, if still kept. */
  get(id: string): Operation | undefined {
    return this.#entries.get(id)?.operation;
  }

  /** Every kept operation, oldest first. */
  list(): Operation[] {
    return [...this.#entries.values()].map((entry) => entry.operation);
  }

  /** Calls `listener` with each operation as it finishes; returns the unsubscribe function. */
  onFinished(listener: (operation: Operation) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Waits until the named operations (default: every running one) have finished, or the
   * timeout passes or `signal` aborts; returns them in their state at that moment.
   */
  async wait(
    ids: string[] | undefined,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Operation[]> {
    const entries = (ids ?? this.list().filter((op) => !isFinished(op)).map((op) => op.id))
      .map((id) => this.#entries.get(id))
      .filter((entry): entry is Entry => entry !== undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      signal?.addEventListener("abort", () => resolve(), { once: true });
    });
    await Promise.race([Promise.all(entries.map((entry) => entry.done)), stop]);
    clearTimeout(timer);
    return entries.map((entry) => entry.operation);
  }

  /** Cancels a running operation, killing its processes; false when there is none to cancel. */
  cancel(id: string, reason = "cancelled by request"): boolean {
    const entry = this.#entries.get(id);
    if (!entry || isFinished(entry.operation)) return false;
    entry.operation.cancelReason = reason;
    entry.controller.abort();
    return true;
  }

  /** Cancels everything still running and removes spooled output. */
  async close(): Promise<void> {
    for (const entry of this.#entries.values()) entry.controller.abort();
    await Promise.all([...this.#entries.values()].map((entry) => entry.done));
    await this.spool.close();
  }

  /** Same as close(). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #finish(operation: Operation, running: Promise<ToolRunResult>): Promise<Operation> {
    try {
      const run = await running;
      operation.run = await this.#capOutput(operation.id, run);
      operation.state = stateOf(run);
    } catch (error) {
      operation.error = error instanceof Error ? error.message : String(error);
      operation.state = "failed";
    }
    operation.finishedAt = Date.now();
    for (const listener of this.#listeners) listener(operation);
    await this.#prune();
    return operation;
  }

  /** Spools the whole output when any command's output is over the cap, and cuts the result. */
  async #capOutput(id: string, run: ToolRunResult): Promise<ToolRunResult> {
    const results = run.kind === "command" ? [run.result] : run.steps.map((step) => step.result);
    if (results.every((result) => result.output.length <= this.#outputCap)) return run;
    await this.spool.save(id, results.map((result) => result.output).join(""));
    const cut = <T extends { output: string }>(result: T): T => ({
      ...result,
      output: cutMiddle(result.output, this.#outputCap),
    });
    return run.kind === "command"
      ? { ...run, result: cut(run.result) }
      : { ...run, steps: run.steps.map((step) => ({ ...step, result: cut(step.result) })) };
  }

  async #prune(): Promise<void> {
    const finished = this.list().filter(isFinished);
    const tooOld = Date.now() - this.#maxAgeMs;
    const excess = finished.length - this.#maxFinished;
    for (const [index, operation] of finished.entries()) {
      if (index < excess || (operation.finishedAt ?? 0) < tooOld) {
        this.#entries.delete(operation.id);
        await this.spool.drop(operation.id);
      }
    }
  }
}

function stateOf(run: ToolRunResult): OperationState {
  const results = run.kind === "command" ? [run.result] : run.steps.map((step) => step.result);
  if (results.some((result) => result.end === "cancelled")) return "cancelled";
  if (results.some((result) => result.end === "timed_out")) return "timed_out";
  const skipped = run.kind === "sequence" && run.skipped.length > 0;
  return !skipped && results.every(isSuccess) ? "completed" : "failed";
}
