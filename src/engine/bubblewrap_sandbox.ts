import { join } from "node:path";
import type { Sandbox, SpawnPlan } from "./sandbox.ts";
import type { SandboxScope } from "./sandbox_scope.ts";

/**
 * Toolchain directories under the home directory that builds read (compilers, registries,
 * caches). They stay visible, read-only; everything else in the home directory is hidden.
 */
export const TOOLCHAIN_HOME_DIRECTORIES = [
  ".cargo",
  ".rustup",
  ".npm",
  ".cache",
  ".deno",
  ".nvm",
  ".pyenv",
  ".local/bin",
  ".local/lib",
  ".gitconfig",
  ".config/git",
];

/** Options for {@linkcode BubblewrapSandbox}. */
export interface BubblewrapOptions {
  /** The home directory to hide. Default: `$HOME`. */
  home?: string;
  /** Unshare the network, loopback included. Default: false. */
  noNetwork?: boolean;
}

/**
 * The Linux sandbox. Each command gets its own mount, PID and (with `noNetwork`) network
 * namespace: the system read-only, the scope read-write, a private `/tmp`, the home directory
 * hidden but for toolchains, and `.git/hooks` and `.git/config` read-only so a command cannot
 * plant code that git later runs outside the sandbox.
 */
export class BubblewrapSandbox implements Sandbox {
  readonly kind = "bubblewrap";
  readonly #policy: string[];

  constructor(scope: SandboxScope, options: BubblewrapOptions = {}) {
    this.#policy = bubblewrapPolicy(scope.roots, options);
  }

  /** Wraps an argv in bwrap with the policy. */
  wrap(argv: string[], cwd: string): SpawnPlan {
    return { command: "bwrap", args: [...this.#policy, "--chdir", cwd, "--", ...argv], cwd: "/" };
  }
}

/** The bwrap arguments of the policy, in mount order (later mounts cover earlier ones). */
export function bubblewrapPolicy(
  roots: readonly string[],
  options: BubblewrapOptions = {},
): string[] {
  const { home = Deno.env.get("HOME"), noNetwork = false } = options;
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  for (const hidden of new Set(["/home", "/root", "/run/user", home])) {
    if (hidden && hidden !== "/") args.push("--tmpfs", hidden);
  }
  if (home && home !== "/") {
    for (const entry of TOOLCHAIN_HOME_DIRECTORIES) {
      const path = join(home, entry);
      args.push("--ro-bind-try", path, path);
    }
  }
  for (const root of roots) {
    args.push("--bind", root, root);
    for (const guarded of [".git/hooks", ".git/config"]) {
      const path = join(root, guarded);
      args.push("--ro-bind-try", path, path);
    }
  }
  args.push(
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--new-session",
    "--die-with-parent",
    "--cap-drop",
    "ALL",
  );
  if (noNetwork) args.push("--unshare-net");
  return args;
}
