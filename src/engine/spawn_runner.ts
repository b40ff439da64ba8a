import type { CommandResult, CommandRunner, RunOptions } from "./command_runner.ts";
import type { Sandbox } from "./sandbox.ts";

/**
 * `exec "$@" 2>&1` gives the command one pipe for both streams, so output interleaves exactly
 * as written. The argv arrives as positional parameters: no word of it is parsed by the shell.
 */
const MERGE_STREAMS = ["sh", "-c", 'exec "$@" 2>&1', "ahma"];

/** After the command exits, how long a leftover holder of its output pipe may keep it open. */
const DRAIN_AFTER_EXIT_MS = 2_000;

/** Runs each command in a fresh process, in its own process group, inside the sandbox. */
export class SpawnRunner implements CommandRunner {
  constructor(readonly sandbox: Sandbox) {}

  /** Spawns the argv, streams its merged output and kills its whole tree when it must end. */
  async run(argv: string[], options: RunOptions): Promise<CommandResult> {
    const { cwd, timeoutSeconds, signal, onOutput } = options;
    const started = performance.now();
    const plan = this.sandbox.wrap([...MERGE_STREAMS, ...argv], cwd);
    const child = new Deno.Command(plan.command, {
      args: plan.args,
      cwd: plan.cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      // A new session makes the child a process-group leader, so one kill reaches its tree.
      detached: true,
    }).spawn();
    let end: CommandResult["end"] = "exited";
    const killTree = (reason: CommandResult["end"]) => {
      if (end === "exited") end = reason;
      killGroup(child.pid);
    };
    const timer = setTimeout(() => killTree("timed_out"), timeoutSeconds * 1000);
    const onAbort = () => killTree("cancelled");
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort);
    const stopReading = new AbortController();
    const reading = readAll(child.stdout, stopReading.signal, onOutput);
    let drainTimer: ReturnType<typeof setTimeout> | undefined;
    try {
      const status = await child.status;
      // Background children of the command would outlive it and hold the pipe open.
      killGroup(child.pid);
      drainTimer = setTimeout(() => stopReading.abort(), DRAIN_AFTER_EXIT_MS);
      return {
        argv,
        output: await reading,
        exitCode: status.signal === null ? status.code : null,
        durationMs: performance.now() - started,
        end,
      };
    } finally {
      clearTimeout(timer);
      clearTimeout(drainTimer);
      signal?.removeEventListener("abort", onAbort);
    }
  }
}

function killGroup(pid: number): void {
  try {
    Deno.kill(-pid, "SIGKILL");
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** Decodes a byte stream to text, passing each piece on as it arrives, until it ends or `stop`. */
async function readAll(
  stream: ReadableStream<Uint8Array>,
  stop: AbortSignal,
  onOutput?: (text: string) => void,
): Promise<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  const cancel = () => reader.cancel().catch(() => {});
  stop.addEventListener("abort", cancel);
  const pieces: string[] = [];
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      pieces.push(value);
      onOutput?.(value);
    }
  } catch {
    // Cancelled after the drain deadline: keep what arrived.
  } finally {
    stop.removeEventListener("abort", cancel);
  }
  return pieces.join("");
}
