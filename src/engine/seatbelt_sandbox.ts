import type { Sandbox, SpawnPlan } from "./sandbox.ts";
import type { SandboxScope } from "./sandbox_scope.ts";
import { TOOLCHAIN_HOME_DIRECTORIES } from "./bubblewrap_sandbox.ts";

/** Options for {@linkcode seatbeltProfile}. */
export interface SeatbeltOptions {
  /** The home directory to hide. Default: `$HOME`. */
  home?: string;
  /** Deny all network access. Default: false. */
  noNetwork?: boolean;
  /** The per-user temp directory (`$TMPDIR`), writable like `/tmp`. */
  tempDirectory?: string;
}

/**
 * The macOS sandbox: `sandbox-exec` with a generated profile holding the Linux policy. Denies
 * by default; reads are allowed on the system but not in the home directory (toolchains and
 * the scope excepted); writes only in the scope and the temp directories; `.git/hooks` and
 * `.git/config` never written. Untested on a Mac: it is generated and unit-tested here.
 */
export class SeatbeltSandbox implements Sandbox {
  readonly kind = "seatbelt";
  readonly #profile: string;

  constructor(scope: SandboxScope, options: SeatbeltOptions = {}) {
    this.#profile = seatbeltProfile(scope.roots, options);
  }

  /** Wraps an argv in `sandbox-exec -p PROFILE`. */
  wrap(argv: string[], cwd: string): SpawnPlan {
    return { command: "/usr/bin/sandbox-exec", args: ["-p", this.#profile, ...argv], cwd };
  }
}

/** The SBPL profile text for a set of scope directories. */
export function seatbeltProfile(roots: readonly string[], options: SeatbeltOptions = {}): string {
  const { home = Deno.env.get("HOME"), noNetwork = false, tempDirectory = Deno.env.get("TMPDIR") } =
    options;
  const temps = ["/private/tmp", "/private/var/folders", tempDirectory].filter(isPath);
  const toolchains = home ? TOOLCHAIN_HOME_DIRECTORIES.map((entry) => `${home}/${entry}`) : [];
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-exec process-fork signal (target same-sandbox))",
    "(allow sysctl-read mach-lookup ipc-posix-shm-read-data pseudo-tty)",
    "(allow file-read*)",
  ];
  if (home) {
    lines.push(`(deny file-read* (subpath ${quote(home)}))`);
    lines.push(`(allow file-read* ${[...toolchains, ...roots].map(subpath).join(" ")})`);
  }
  lines.push(`(allow file-write* ${[...roots, ...temps, "/dev"].map(subpath).join(" ")})`);
  const guarded = roots.flatMap((root) => [`${root}/.git/hooks`, `${root}/.git/config`]);
  lines.push(`(deny file-write* ${guarded.map(subpath).join(" ")})`);
  lines.push(noNetwork ? "(deny network*)" : "(allow network*)");
  return lines.join("\n");
}

function isPath(value: string | undefined): value is string {
  return value !== undefined && value.startsWith("/");
}

function subpath(path: string): string {
  return `(subpath ${quote(path)})`;
}

/** SBPL strings are double-quoted with backslash escapes. */
function quote(path: string): string {
  return `"${path.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}
