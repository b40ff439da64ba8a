import {
  hostPidNamespace,
  parseBubblewrapInfo,
  readBubblewrapReport,
} from "./bubblewrap_report.ts";
import type { Sandbox } from "./sandbox.ts";
import {
  commandScript,
  concatBytes,
  FrameParser,
  makeNonce,
  probeScript,
  SHELL_PRELUDE,
} from "./shell_protocol.ts";

/** How one command in a warm shell ended. */
export type ShellRun =
  | { kind: "ended"; output: Uint8Array; exitCode: number }
  /** The shell died or was killed first; `started` is false when the command never began. */
  | { kind: "lost"; output: Uint8Array; started: boolean };

/** Options for {@linkcode WarmShell.start}. */
export interface WarmShellOptions {
  /** Called once the shell's process is gone and its output read. Default: nothing. */
  onExit?: (shell: WarmShell) => void;
  /** Aborting a start kills the shell, and `start()` throws. Default: none. */
  signal?: AbortSignal;
}

/** Options for {@linkcode WarmShell.run}. */
export interface ShellRunOptions {
  /** Receives output as it arrives. Default: nothing. */
  onOutput?: (text: string) => void;
  /** Aborting kills the command's whole tree, and the shell with it. Default: none. */
  signal?: AbortSignal;
}

/** After the shell exits, how long a leftover holder of its stdout may keep it open. */
const DRAIN_AFTER_EXIT_MS = 2_000;

/** How long killing bwrap's pid 1 may take before the whole bwrap process group is killed. */
const KILL_FALLBACK_MS = 5_000;

/**
 * One long-lived `sh -s`, started once inside the sandbox, running one command at a time
 * (shell_protocol.ts has the wire format).
 *
 * Why nothing a command starts outlives its call:
 * - Under bubblewrap the shell is pid 2 of a PID namespace of its own (bwrap's init is pid 1).
 *   After every command the shell runs `kill -s KILL -- -1`, which the kernel confines to that
 *   namespace and which spares only the caller and pid 1: every child, grandchild and daemon of
 *   the command dies, even one that left the process group with setsid. The shell stays warm.
 * - A timeout or abort kills the whole sandbox instead: bwrap reports the host pid of its pid 1
 *   on `--info-fd 2`, and SIGKILL to a namespace's pid 1 makes the kernel kill every process in
 *   it. bwrap's outer process exits only once that pid 1 has been reaped, and pid 1 only after all
 *   of the namespace is gone, so `kill()` returns when nothing is left. The pool starts a new one.
 * - Without a PID namespace (`--no-sandbox`, seatbelt) a shell cannot find what a command left:
 *   a non-interactive sh has no job control, so the command shares the shell's process group.
 *   Such a shell serves one command; its process group (spawned detached) is then killed, as
 *   SpawnRunner does, and the pool replaces it. The call still skips the shell start.
 * `kill -1` is used only after the host has checked, from bwrap's report, that the shell's PID
 * namespace is not ahma's, and the shell that it is pid 2 under a pid 1 named `bwrap`: run
 * anywhere else it would kill every process of the user.
 */
export class WarmShell {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #onExit: ((shell: WarmShell) => void) | undefined;
  readonly #closed: Promise<void>;
  #namespaceInit: number | undefined;
  #isolated = false;
  #exited = false;
  #streamEnded = false;
  #frame: CommandFrame | undefined;

  private constructor(child: Deno.ChildProcess, onExit: ((shell: WarmShell) => void) | undefined) {
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#reader = child.stdout.getReader();
    this.#onExit = onExit;
    this.#closed = this.#watch();
  }

  /** Starts a shell in the sandbox and waits until it answers; throws when it cannot start. */
  static async start(sandbox: Sandbox, options: WarmShellOptions = {}): Promise<WarmShell> {
    const { onExit, signal } = options;
    // Each command changes to its own directory, so the shell may start anywhere.
    const plan = sandbox.wrap(["sh", "-s"], "/");
    const bubblewrap = sandbox.kind === "bubblewrap" && plan.command === "bwrap";
    const child = new Deno.Command(plan.command, {
      args: bubblewrap ? ["--info-fd", "2", ...plan.args] : plan.args,
      cwd: plan.cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: bubblewrap ? "piped" : "null",
      // A new session makes the shell (or bwrap) a process-group leader: one kill reaches all.
      detached: true,
    }).spawn();
    const shell = new WarmShell(child, onExit);
    try {
      const nonce = makeNonce();
      const [report, probe] = await Promise.all([
        bubblewrap ? readBubblewrapReport(child.stderr) : Promise.resolve(""),
        shell.#runFrame(nonce, SHELL_PRELUDE + probeScript(nonce), signal ? { signal } : {}),
      ]);
      const info = parseBubblewrapInfo(report);
      shell.#namespaceInit = info?.childPid;
      if (probe.kind !== "ended") {
        throw new Error(
          `Cannot start a shell in the ${sandbox.kind} sandbox: ${
            report.trim() || "it exited at once"
          }; check that "sh" runs there`,
        );
      }
      const [pid, init] = new TextDecoder().decode(probe.output).split(" ");
      // Under Deno's permission set (not --allow-all) /proc/self cannot be read, so the host
      // namespace may be unknown; pid 2 alone rules the host out, where it is always kthreadd.
      const hostNamespace = await hostPidNamespace();
      shell.#isolated = info !== undefined && info.pidNamespace !== hostNamespace &&
        pid === "2" && init === "bwrap";
      return shell;
    } catch (error) {
      await shell.kill();
      throw error;
    }
  }

  /** The host pid of the spawned process (the outer bwrap, or the shell itself). */
  get pid(): number {
    return this.#child.pid;
  }

  /** True until the shell's process is gone or its output closed. */
  get alive(): boolean {
    return !this.#exited && !this.#streamEnded;
  }

  /** True when the shell may serve another command: it is alive and alone in its namespace. */
  get reusable(): boolean {
    return this.#isolated && this.alive;
  }

  /** Runs one argv in `cwd`; resolves once the command and everything it started are gone. */
  async run(
    argv: readonly string[],
    cwd: string,
    options: ShellRunOptions = {},
  ): Promise<ShellRun> {
    const nonce = makeNonce();
    const script = commandScript(nonce, { argv, cwd }, { killNamespace: this.#isolated });
    const run = await this.#runFrame(nonce, script, options);
    if (run.kind === "ended" && !this.#isolated) await this.kill();
    return run;
  }

  /** Kills the shell and every process it started; resolves once they are gone. */
  async kill(): Promise<void> {
    if (!this.#exited) {
      signalKill(this.#namespaceInit ?? -this.#child.pid);
    }
    const fallback = setTimeout(() => {
      if (!this.#exited) signalKill(-this.#child.pid);
    }, KILL_FALLBACK_MS);
    try {
      await this.#closed;
    } finally {
      clearTimeout(fallback);
    }
  }

  async #runFrame(nonce: string, script: string, options: ShellRunOptions): Promise<ShellRun> {
    const { onOutput, signal } = options;
    if (this.#frame) {
      throw new Error(
        "Cannot run two commands at once in one shell; acquire another from the pool",
      );
    }
    const frame = new CommandFrame(nonce, onOutput);
    this.#frame = frame;
    if (this.#streamEnded) frame.lose();
    let killing: Promise<void> | undefined;
    const onAbort = () => {
      killing ??= this.kill();
    };
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort);
    try {
      // A failed write means the shell is gone; the end of its stdout reports the loss.
      await this.#writer.write(new TextEncoder().encode(script)).catch(() => {});
      const run = await frame.result;
      if (killing) await killing;
      else if (run.kind === "lost") await this.#closed;
      return run;
    } finally {
      signal?.removeEventListener("abort", onAbort);
      this.#frame = undefined;
    }
  }

  async #watch(): Promise<void> {
    const pumping = this.#pump();
    await this.#child.status;
    this.#exited = true;
    const drain = setTimeout(() => this.#reader.cancel().catch(() => {}), DRAIN_AFTER_EXIT_MS);
    try {
      await pumping;
    } finally {
      clearTimeout(drain);
    }
    await this.#writer.close().catch(() => {});
    this.#onExit?.(this);
  }

  async #pump(): Promise<void> {
    try {
      while (true) {
        const { done, value } = await this.#reader.read();
        if (done) break;
        this.#frame?.push(value);
      }
    } catch {
      // Cancelled after the drain deadline.
    }
    this.#streamEnded = true;
    this.#frame?.lose();
  }
}

/** One command's frame: collects its output bytes and settles with how it ended. */
class CommandFrame {
  readonly result: Promise<ShellRun>;
  readonly #parser: FrameParser;
  readonly #onOutput: ((text: string) => void) | undefined;
  readonly #decoder = new TextDecoder();
  readonly #chunks: Uint8Array[] = [];
  #settle: (run: ShellRun) => void = () => {};
  #settled = false;

  constructor(nonce: string, onOutput: ((text: string) => void) | undefined) {
    this.#parser = new FrameParser(nonce);
    this.#onOutput = onOutput;
    this.result = new Promise((resolve) => this.#settle = resolve);
  }

  push(chunk: Uint8Array): void {
    if (this.#settled) return;
    const { output, status } = this.#parser.push(chunk);
    if (output.length > 0) {
      this.#chunks.push(output);
      this.#emit(this.#decoder.decode(output, { stream: true }));
    }
    if (status !== undefined) {
      this.#finish({ kind: "ended", output: this.#output(), exitCode: status });
    }
  }

  lose(): void {
    if (!this.#settled) {
      this.#finish({ kind: "lost", output: this.#output(), started: this.#parser.begun });
    }
  }

  #finish(run: ShellRun): void {
    this.#settled = true;
    this.#emit(this.#decoder.decode());
    this.#settle(run);
  }

  #output(): Uint8Array {
    return this.#chunks.length === 1
      ? this.#chunks[0] ?? new Uint8Array(0)
      : concatBytes(this.#chunks);
  }

  #emit(text: string): void {
    if (text === "") return;
    try {
      this.#onOutput?.(text);
    } catch {
      // A failing listener must not stop the shell's output from being read.
    }
  }
}

function signalKill(target: number): void {
  try {
    Deno.kill(target, "SIGKILL");
  } catch {
    // ESRCH: already gone.
  }
}
