import { dirname } from "node:path";
import type { Sandbox, SpawnPlan } from "./sandbox.ts";
import type { SandboxScope } from "./sandbox_scope.ts";
import { sandboxCacheEnvironment, TOOLCHAIN_HOME_DIRECTORIES } from "./bubblewrap_sandbox.ts";

/** Options for {@linkcode seatbeltProfile}. */
export interface SeatbeltOptions {
  /** The home directory to hide. Default: `$HOME`. */
  home?: string;
  /** Deny all network access. Default: false. */
  noNetwork?: boolean;
  /** The per-user temp directory (`$TMPDIR`), writable like `/tmp`. */
  tempDirectory?: string;
}

/** Devices a command may write: the terminal and the usual sinks, not the disks. */
const WRITABLE_DEVICES = [
  '(literal "/dev/null")',
  '(literal "/dev/zero")',
  '(literal "/dev/tty")',
  '(literal "/dev/ptmx")',
  '(literal "/dev/dtracehelper")',
  '(subpath "/dev/fd")',
  '(regex #"^/dev/ttys[0-9]+$")',
];

/** Name resolution on macOS goes through this daemon's socket. */
const RESOLVER_SOCKETS = ['"/var/run/mDNSResponder"', '"/private/var/run/mDNSResponder"'];

/**
 * The macOS sandbox: `sandbox-exec` with a generated profile holding the Linux policy. Denies
 * by default; reads are allowed on the system but not in the home directories (toolchains and
 * the scope excepted); writes only in the scope and the temp directories; `.git` guarded; no
 * connection to host daemons' unix sockets. Untested on a Mac: it is generated and unit-tested
 * here. Unlike Linux, `/tmp` is the host's own.
 */
export class SeatbeltSandbox implements Sandbox {
  readonly kind = "seatbelt";
  readonly #profile: string;
  readonly #environment: string[];

  constructor(scope: SandboxScope, options: SeatbeltOptions = {}) {
    this.#profile = seatbeltProfile(scope.roots, options);
    this.#environment = Object.entries(sandboxCacheEnvironment(scope.primary)).map(
      ([name, value]) => `${name}=${value}`,
    );
  }

  /** Wraps an argv in `sandbox-exec -p PROFILE`, with the caches moved into the scope by `env`. */
  wrap(argv: string[], cwd: string): SpawnPlan {
    return {
      command: "/usr/bin/sandbox-exec",
      args: ["-p", this.#profile, "/usr/bin/env", ...this.#environment, ...argv],
      cwd,
    };
  }
}

/** The SBPL profile text for a set of scope directories. Later rules override earlier ones. */
export function seatbeltProfile(roots: readonly string[], options: SeatbeltOptions = {}): string {
  const { home = Deno.env.get("HOME"), noNetwork = false, tempDirectory = Deno.env.get("TMPDIR") } =
    options;
  const temps = ["/private/tmp", "/private/var/folders", tempDirectory].filter(isPath);
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-exec process-fork)",
    "(allow signal (target same-sandbox))",
    "(allow sysctl-read mach-lookup ipc-posix-shm-read-data pseudo-tty)",
    "(allow file-read*)",
    ...homeRules(roots, home),
    ...rule("allow file-write*", [...[...roots, ...temps].map(subpath), ...WRITABLE_DEVICES]),
    ...rule("deny file-write*", roots.flatMap(gitGuards)),
    ...networkRules(roots, temps, noNetwork),
  ];
  return lines.join("\n");
}

/** Hides every home directory but the toolchains and the scope; paths above a scope stay statable. */
function homeRules(roots: readonly string[], home: string | undefined): string[] {
  const hidden = ["/Users", home].filter(isPath).filter((path) => path !== "/");
  const toolchains = home ? TOOLCHAIN_HOME_DIRECTORIES.map((entry) => `${home}/${entry}`) : [];
  const ancestors = new Set(roots.flatMap(ancestorsOf));
  return [
    ...rule("deny file-read*", [...new Set(hidden)].map(subpath)),
    ...rule("allow file-read*", [...toolchains, ...roots].map(subpath)),
    ...rule("allow file-read-metadata", [...ancestors].map(literal)),
  ];
}

/**
 * What git runs unconfined must stay as the user left it. Seatbelt matches paths, so unlike
 * bubblewrap it also stops a `.git` being renamed away and a `commondir` being created.
 */
function gitGuards(root: string): string[] {
  return [
    literal(`${root}/.git`),
    subpath(`${root}/.git/hooks`),
    literal(`${root}/.git/config`),
    literal(`${root}/.git/commondir`),
  ];
}

/**
 * The network, and unix sockets apart from it: connecting to a host daemon's socket (docker,
 * databases, agents) is a way out, so only sockets in the scope and temp directories are
 * reachable, plus the resolver while the network is allowed.
 */
function networkRules(roots: readonly string[], temps: string[], noNetwork: boolean): string[] {
  const own = [...roots, ...temps].map((path) => `(remote unix-socket ${subpath(path)})`);
  const resolver = RESOLVER_SOCKETS.map((socket) =>
    `(remote unix-socket (path-literal ${socket}))`
  );
  return [
    noNetwork ? "(deny network*)" : "(allow network*)",
    '(deny network-outbound (remote unix-socket (subpath "/")))',
    ...rule("allow network-outbound", noNetwork ? own : [...own, ...resolver]),
  ];
}

/** One SBPL rule, or none when it has no filters: `(allow file-write*)` alone would allow all. */
function rule(head: string, filters: string[]): string[] {
  return filters.length === 0 ? [] : [`(${head} ${filters.join(" ")})`];
}

function ancestorsOf(root: string): string[] {
  const ancestors: string[] = [];
  for (let path = dirname(root); path !== dirname(path); path = dirname(path)) {
    ancestors.push(path);
  }
  return ancestors;
}

function isPath(value: string | undefined): value is string {
  return value !== undefined && value.startsWith("/");
}

function subpath(path: string): string {
  return `(subpath ${quote(path)})`;
}

function literal(path: string): string {
  return `(literal ${quote(path)})`;
}

/** SBPL strings are double-quoted with backslash escapes. */
function quote(path: string): string {
  return `"${path.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}
