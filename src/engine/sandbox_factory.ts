import { BubblewrapSandbox } from "./bubblewrap_sandbox.ts";
import { type Sandbox, UnconfinedSandbox } from "./sandbox.ts";
import type { SandboxScope } from "./sandbox_scope.ts";
import { SeatbeltSandbox } from "./seatbelt_sandbox.ts";

/** The sandbox cannot confine commands on this machine; the message says how to fix it. */
export class SandboxUnavailableError extends Error {
  override name = "SandboxUnavailableError";
}

/** Options for {@linkcode createSandbox}. */
export interface SandboxOptions {
  /** Run commands unconfined (`--no-sandbox`). Default: false. */
  noSandbox?: boolean;
  /** Unshare the network (`--no-network`). Default: false. */
  noNetwork?: boolean;
  /** The operating system. Default: `Deno.build.os`. */
  os?: typeof Deno.build.os;
}

/**
 * Builds the platform's sandbox for a scope and proves it works by running `true` in it;
 * throws {@linkcode SandboxUnavailableError} with the fix when it cannot.
 */
export async function createSandbox(
  scope: SandboxScope,
  options: SandboxOptions = {},
): Promise<Sandbox> {
  const { noSandbox = false, noNetwork = false, os = Deno.build.os } = options;
  if (noSandbox) return new UnconfinedSandbox();
  let sandbox: Sandbox;
  let fix: string;
  if (os === "linux") {
    sandbox = new BubblewrapSandbox(scope, { noNetwork });
    fix = 'install bubblewrap ("apt install bubblewrap") and allow unprivileged user namespaces';
  } else if (os === "darwin") {
    sandbox = new SeatbeltSandbox(scope, { noNetwork });
    fix = "check that /usr/bin/sandbox-exec runs";
  } else {
    throw new SandboxUnavailableError(
      `Cannot start the sandbox: ${os} has none that ahma supports; pass --no-sandbox to run commands unconfined`,
    );
  }
  const problem = await probe(sandbox, scope.primary);
  if (problem) {
    throw new SandboxUnavailableError(
      `Cannot start the sandbox: ${problem}; ${fix}, or pass --no-sandbox to run commands unconfined`,
    );
  }
  return sandbox;
}

/** Runs `true` in the sandbox; returns what went wrong, or undefined when it worked. */
async function probe(sandbox: Sandbox, cwd: string): Promise<string | undefined> {
  const plan = sandbox.wrap(["true"], cwd);
  try {
    const { success, stderr } = await new Deno.Command(plan.command, {
      args: plan.args,
      cwd: plan.cwd,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    if (success) return undefined;
    return `${plan.command} failed (${new TextDecoder().decode(stderr).trim() || "no message"})`;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return `${plan.command} is not installed`;
    return `${plan.command} cannot run (${error instanceof Error ? error.message : String(error)})`;
  }
}
