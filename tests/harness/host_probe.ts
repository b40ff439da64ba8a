import { join } from "node:path";

/** A project directory with a sibling outside it, both in a parent the sandbox sees read-only. */
export interface OutsideLayout extends AsyncDisposable {
  /** The scope to pass to `--sandbox-scope`. */
  project: string;
  /** A directory beside the project: outside the scope, visible to the sandbox read-only. */
  outside: string;
}

/**
 * Creates `project/` and `outside/` under a fresh directory in `/var/tmp`. Not `/tmp`: the
 * sandbox has a private `/tmp`, where a write outside the scope lands in a throwaway copy
 * instead of failing.
 */
export async function makeOutsideLayout(): Promise<OutsideLayout> {
  const parent = await Deno.realPath(await Deno.makeTempDir({ dir: "/var/tmp", prefix: "ahma_" }));
  const project = join(parent, "project");
  const outside = join(parent, "outside");
  await Deno.mkdir(project);
  await Deno.mkdir(outside);
  return {
    project,
    outside,
    async [Symbol.asyncDispose]() {
      await Deno.remove(parent, { recursive: true }).catch(() => {});
    },
  };
}

/** A file the test planted on the host, removed when disposed. */
export interface PlantedFile extends AsyncDisposable {
  path: string;
  content: string;
}

/** Writes a secret with random content to `$HOME/.ahma_test_secret_<random>`. */
export async function plantHomeSecret(): Promise<PlantedFile> {
  const home = Deno.env.get("HOME");
  if (!home) throw new Error("Cannot plant a secret: HOME is not set; set it and rerun");
  const token = crypto.randomUUID();
  const path = join(home, `.ahma_test_secret_${token}`);
  const content = `secret-${token}`;
  await Deno.writeTextFile(path, content);
  return {
    path,
    content,
    async [Symbol.asyncDispose]() {
      await Deno.remove(path).catch(() => {});
    },
  };
}

/** A process running on the host, outside the sandbox, killed when disposed. */
export interface HostProcess extends AsyncDisposable {
  pid: number;
  /** An argument no other process has, to look for in process listings. */
  marker: string;
  /** True while the process has not exited. */
  alive(): boolean;
}

/** Starts `sleep <unique seconds>` on the host. */
export function startHostSleeper(): HostProcess {
  const marker = `600.${crypto.getRandomValues(new Uint32Array(1))[0]}`;
  const child = new Deno.Command("sleep", {
    args: [marker],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  let exited = false;
  const status = child.status.then(() => {
    exited = true;
  });
  return {
    pid: child.pid,
    marker,
    alive: () => !exited,
    async [Symbol.asyncDispose]() {
      if (!exited) child.kill("SIGKILL");
      await status;
    },
  };
}

/** A TCP listener on the host's loopback that records what each connection sends. */
export interface LoopbackListener extends AsyncDisposable {
  port: number;
  /** Everything received so far, across connections. */
  received(): string;
}

/** Listens on 127.0.0.1 on a free port. */
export function listenOnLoopback(): LoopbackListener {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let received = "";
  const serving = (async () => {
    for await (const connection of listener) {
      for await (const chunk of connection.readable) received += new TextDecoder().decode(chunk);
    }
  })().catch(() => {});
  return {
    port: listener.addr.port,
    received: () => received,
    async [Symbol.asyncDispose]() {
      listener.close();
      await serving;
    },
  };
}

/**
 * Serves a unix socket at `path`, as a host daemon would (docker, a database); undefined when
 * the directory is not writable by this user.
 */
export function listenOnUnixSocket(
  path: string,
): (AsyncDisposable & { path: string }) | undefined {
  let listener: Deno.UnixListener;
  try {
    listener = Deno.listen({ transport: "unix", path });
  } catch (error) {
    if (error instanceof Deno.errors.PermissionDenied) return undefined;
    throw error;
  }
  const serving = (async () => {
    for await (const connection of listener) connection.close();
  })().catch(() => {});
  return {
    path,
    async [Symbol.asyncDispose]() {
      listener.close();
      await serving;
      await Deno.remove(path).catch(() => {});
    },
  };
}

/** The bytes of a file, or undefined when it does not exist. */
export async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** The sorted names in a directory. */
export async function entryNames(path: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(path)) names.push(entry.name);
  return names.sort();
}
