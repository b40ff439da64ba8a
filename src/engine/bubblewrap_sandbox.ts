import { join } from "node:path";
import type { Sandbox, SpawnPlan } from "./sandbox.ts";
import type { SandboxScope } from "./sandbox_scope.ts";

/**
 * Toolchain directories under the home directory that builds read (compilers, package
 * managers' binaries, git's identity). They stay visible, read-only; everything else in the home
 * directory is hidden.
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

/** Where sandboxed toolchains keep their writable caches, relative to the first scope. */
export const SANDBOX_CACHE_DIRECTORY = ".ahma/cache";

/**
 * The environment every sandboxed command gets: toolchain caches moved into the first scope.
 * The home caches stay read-only because a writable one is a way out: a crate source or npm
 * packument planted there is built or run by the user's next build outside the sandbox.
 * `CARGO_HOME` moves whole (cargo writes its registry there), so `~/.cargo/config.toml` and
 * cargo's credentials are not read; `~/.cargo/bin` stays usable through PATH.
 */
export function sandboxCacheEnvironment(scope: string): Record<string, string> {
  const cache = join(scope, SANDBOX_CACHE_DIRECTORY);
  return {
    XDG_CACHE_HOME: cache,
    DENO_DIR: join(cache, "deno"),
    npm_config_cache: join(cache, "npm"),
    CARGO_HOME: join(cache, "cargo"),
  };
}

/**
 * System directories replaced by an empty tmpfs. `/run` holds the sockets of host daemons
 * (docker, containerd, podman, the D-Bus system bus, databases) and `/run/user` the session's;
 * a read-only mount does not stop `connect()`, and any of them is a way out.
 */
const HIDDEN_DIRECTORIES = ["/tmp", "/run", "/home", "/root"];

/** What is put back, read-only, from `/run`: the resolver files `/etc/resolv.conf` may link to. */
const RUN_ENTRIES_KEPT = [
  "/run/systemd/resolve",
  "/run/resolvconf",
  "/run/NetworkManager/resolv.conf",
  "/run/connman/resolv.conf",
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
 * namespace: the system read-only, the scope read-write, a private `/tmp` and `/run`, the home
 * directory hidden but for toolchains, and `.git/hooks` and `.git/config` read-only so a command
 * cannot plant code that git later runs outside the sandbox.
 */
export class BubblewrapSandbox implements Sandbox {
  readonly kind = "bubblewrap";
  readonly #roots: readonly string[];
  readonly #options: BubblewrapOptions;

  constructor(scope: SandboxScope, options: BubblewrapOptions = {}) {
    this.#roots = scope.roots;
    this.#options = { home: Deno.env.get("HOME"), ...options };
  }

  /** Wraps an argv in bwrap with the policy, built afresh since `.git` may have appeared. */
  wrap(argv: string[], cwd: string): SpawnPlan {
    const policy = bubblewrapPolicy(this.#roots, this.#options);
    return { command: "bwrap", args: [...policy, "--chdir", cwd, "--", ...argv], cwd: "/" };
  }
}

/** The bwrap arguments of the policy, in mount order (later mounts cover earlier ones). */
export function bubblewrapPolicy(
  roots: readonly string[],
  options: BubblewrapOptions = {},
): string[] {
  const { home = Deno.env.get("HOME"), noNetwork = false } = options;
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  for (const hidden of new Set([...HIDDEN_DIRECTORIES, home])) {
    if (hidden && hidden !== "/") args.push("--tmpfs", hidden);
  }
  for (const kept of RUN_ENTRIES_KEPT) args.push("--ro-bind-try", kept, kept);
  if (home && home !== "/") {
    for (const entry of TOOLCHAIN_HOME_DIRECTORIES) {
      const path = join(home, entry);
      args.push("--ro-bind-try", path, path);
    }
  }
  for (const root of roots) args.push("--bind", root, root, ...gitGuards(root));
  const [primary] = roots;
  if (primary !== undefined) {
    for (const [name, value] of Object.entries(sandboxCacheEnvironment(primary))) {
      args.push("--setenv", name, value);
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

/**
 * Mounts that keep git's executable configuration out of reach: host git runs hooks and
 * `core.*` commands unconfined. A `.git` directory is bound onto itself, because a mount point
 * cannot be renamed or removed: otherwise `mv .git x && mkdir .git` would sidestep the guards.
 * A `.git` file (worktree, submodule) is read-only: rewriting its `gitdir:` would redirect git.
 * Not covered: a `.git` made during the same command, nested repositories, a `.git` symlink,
 * and a new `.git/commondir`, which no mount can stop a writable directory from gaining.
 */
function gitGuards(root: string): string[] {
  const git = join(root, ".git");
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(git);
  } catch {
    return [];
  }
  if (info.isFile) return ["--ro-bind", git, git];
  if (!info.isDirectory) return [];
  const hooks = join(git, "hooks");
  const config = join(git, "config");
  return ["--bind", git, git, "--ro-bind-try", hooks, hooks, "--ro-bind-try", config, config];
}
