import type { Sandbox } from "./sandbox.ts";
import type { WarmShell } from "./warm_shell.ts";

/** The shells of one sandbox in a ShellPool, by state. Idle ones are oldest first. */
export class SandboxShells {
  readonly idle: { shell: WarmShell; since: number }[] = [];
  readonly busy = new Set<WarmShell>();
  /** Calls waiting for a shell, first come first served; `undefined` means "try again". */
  readonly waiters: ((shell: WarmShell | undefined) => void)[] = [];
  starting = 0;
  /** The policy new shells start under. */
  policy: string;

  constructor(readonly sandbox: Sandbox) {
    this.policy = shellPolicy(sandbox);
  }

  /** Every shell counted against the pool's bound: idle, busy and starting. */
  get size(): number {
    return this.idle.length + this.busy.size + this.starting;
  }

  /** Forgets an idle shell, if it is one. */
  removeIdle(shell: WarmShell): void {
    const at = this.idle.findIndex((idle) => idle.shell === shell);
    if (at >= 0) this.idle.splice(at, 1);
  }
}

/** The sandbox's plan for a shell now; a change means new shells would be confined differently. */
export function shellPolicy(sandbox: Sandbox): string {
  return JSON.stringify(sandbox.wrap(["sh", "-s"], "/"));
}
