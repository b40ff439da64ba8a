/** An argv ready to spawn: the program, its arguments and where it starts. */
export interface SpawnPlan {
  command: string;
  args: string[];
  cwd: string;
}

/** Confines a command: wraps its argv so it runs inside the sandbox. */
export interface Sandbox {
  /** What confines commands, for messages and `doctor`. */
  readonly kind: "bubblewrap" | "seatbelt" | "none";
  /** Wraps an argv to run confined in `cwd`. */
  wrap(argv: string[], cwd: string): SpawnPlan;
}

/** Runs commands unconfined; chosen only by `--no-sandbox`. */
export class UnconfinedSandbox implements Sandbox {
  readonly kind = "none";

  /** Returns the argv as it is. */
  wrap(argv: string[], cwd: string): SpawnPlan {
    const [command = "true", ...args] = argv;
    return { command, args, cwd };
  }
}
