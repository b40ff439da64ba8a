import type { CommandEnd, CommandResult, CommandRunner, RunOptions } from "./command_runner.ts";
import type { Sandbox } from "./sandbox.ts";
import type { ShellPool } from "./shell_pool.ts";
import type { ShellRun, ShellRunOptions } from "./warm_shell.ts";

/** Tries of a call whose shell died before the command began (it never ran, so it is safe). */
const MAX_ATTEMPTS = 3;

/**
 * Runs each command in a warm shell of the pool, inside the sandbox, so a call pays neither a
 * sandbox start nor a shell start. A timeout or abort kills the command's whole tree (and its
 * shell, which the pool replaces). A command killed by a signal reports 128 + the signal's
 * number, as a shell does, where SpawnRunner reports null.
 */
export class PooledRunner implements CommandRunner {
  constructor(readonly pool: ShellPool, readonly sandbox: Sandbox) {}

  /** Runs the argv in a pooled shell; resolves once it and everything it started are gone. */
  async run(argv: string[], options: RunOptions): Promise<CommandResult> {
    const { cwd, timeoutSeconds, signal, onOutput } = options;
    const started = performance.now();
    const stop = new AbortController();
    let reason: CommandEnd = "exited";
    const halt = (why: CommandEnd) => {
      if (stop.signal.aborted) return;
      reason = why;
      stop.abort();
    };
    const timer = setTimeout(() => halt("timed_out"), timeoutSeconds * 1000);
    const onAbort = () => halt("cancelled");
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort);
    try {
      const run = await this.#runInShell(argv, cwd, {
        signal: stop.signal,
        ...(onOutput ? { onOutput } : {}),
      });
      return {
        argv,
        output: new TextDecoder().decode(run.output),
        exitCode: run.kind === "ended" ? run.exitCode : null,
        durationMs: performance.now() - started,
        end: endOf(run, reason, this.pool.closed),
      };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Runs in a shell of the pool, on a fresh one if the first died before the command began. */
  async #runInShell(argv: string[], cwd: string, options: ShellRunOptions): Promise<ShellRun> {
    const { signal } = options;
    for (let attempt = 1;; attempt++) {
      let shell;
      try {
        shell = await this.pool.acquire(this.sandbox, signal);
      } catch (error) {
        if (signal?.aborted) return { kind: "lost", output: new Uint8Array(0), started: false };
        throw error;
      }
      try {
        if (signal?.aborted) return { kind: "lost", output: new Uint8Array(0), started: false };
        const run = await shell.run(argv, cwd, options);
        if (run.kind === "ended" || run.started || signal?.aborted || this.pool.closed) return run;
        if (attempt === MAX_ATTEMPTS) {
          throw new Error(
            `Cannot run "${
              argv[0] ?? ""
            }": the sandboxed shell exited ${MAX_ATTEMPTS} times before the command began; run "ahma doctor"`,
          );
        }
      } finally {
        this.pool.release(shell);
      }
    }
  }
}

/**
 * How a call ended: a command that finished before the timer fired ended on its own; one whose
 * shell was killed by the pool closing was cancelled; one whose shell died otherwise exited.
 */
function endOf(run: ShellRun, reason: CommandEnd, poolClosed: boolean): CommandEnd {
  if (run.kind === "ended") return "exited";
  return reason === "exited" && poolClosed ? "cancelled" : reason;
}
