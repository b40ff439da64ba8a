/** How a command ended. */
export type CommandEnd = "exited" | "timed_out" | "cancelled";

/** The outcome of one command: merged output, exit code and duration. */
export interface CommandResult {
  argv: string[];
  /** stdout and stderr merged in the order written, as `2>&1` would. */
  output: string;
  /** The exit code; null when killed by a signal. */
  exitCode: number | null;
  durationMs: number;
  end: CommandEnd;
}

/** Options for {@linkcode CommandRunner.run}. */
export interface RunOptions {
  /** Directory to start in, already checked against the scope. */
  cwd: string;
  /** Kill the whole process tree after this many seconds. */
  timeoutSeconds: number;
  /** Aborting kills the whole process tree; the result says `cancelled`. */
  signal?: AbortSignal;
  /** Receives output as it arrives, for progress messages. */
  onOutput?: (text: string) => void;
}

/** Runs one argv, confined by a sandbox; never throws for a failing command. */
export interface CommandRunner {
  /** Runs an argv and resolves with its result once it and its children are gone. */
  run(argv: string[], options: RunOptions): Promise<CommandResult>;
}
