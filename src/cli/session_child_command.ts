import { fileURLToPath } from "node:url";
import type { ChildCommand } from "../transport/mod.ts";
import type { CliArguments } from "./cli_options.ts";

/**
 * How `--session-isolation` starts a session's child: this same ahma as `--mode stdio`, confined
 * to the session's root, with this process's tool, sandbox and log settings. Compiled, that is
 * the binary itself (its permissions are baked in); from source, `deno run` with the flags of
 * deno.json's `ahma` task, except that the child may write only its root, the temp directory
 * and the log file, and has no network: it serves stdio.
 */
export async function sessionChildCommand(
  cli: CliArguments,
): Promise<(root: string) => ChildCommand> {
  const source = Deno.build.standalone ? undefined : await sourceRunArguments();
  const settings = forwardedSettings(cli);
  // The child keeps this process's working directory, so relative paths mean the same to it.
  return (root) => ({
    command: Deno.execPath(),
    args: [
      ...(source
        ? narrowPermissions(source, [root, tempDirectory(), ...(cli.logFile ? [cli.logFile] : [])])
        : []),
      "--mode",
      "stdio",
      "--sandbox-scope",
      root,
      ...settings,
    ],
  });
}

/** Replaces the task's permission set by the same permissions with writes limited to `writable`. */
function narrowPermissions(words: string[], writable: string[]): string[] {
  return words.flatMap((word) =>
    word.startsWith("--permission-set")
      ? ["--allow-read", "--allow-run", "--allow-env", `--allow-write=${writable.join(",")}`]
      : [word]
  );
}

function tempDirectory(): string {
  return Deno.env.get("TMPDIR") ?? "/tmp";
}

/** `deno run <flags of the ahma task> --config deno.json main.ts`, read from deno.json. */
async function sourceRunArguments(): Promise<string[]> {
  const configUrl = new URL("../../deno.json", import.meta.url);
  const config: unknown = JSON.parse(await Deno.readTextFile(configUrl));
  const task = taskCommand(config);
  const words = task?.trim().split(/\s+/) ?? [];
  if (words[0] !== "deno" || words[1] !== "run" || words.at(-1) !== "main.ts") {
    throw new TypeError(
      `Cannot start isolated sessions: deno.json's "ahma" task is "${task}", not "deno run ... main.ts"; restore it`,
    );
  }
  return [
    ...words.slice(1, -1),
    "--config",
    fileURLToPath(configUrl),
    fileURLToPath(new URL("../../main.ts", import.meta.url)),
  ];
}

function taskCommand(config: unknown): string | undefined {
  if (typeof config !== "object" || config === null || !("tasks" in config)) return undefined;
  const tasks = config.tasks;
  if (typeof tasks !== "object" || tasks === null || !("ahma" in tasks)) return undefined;
  const task = tasks.ahma;
  if (typeof task === "string") return task;
  if (typeof task === "object" && task !== null && "command" in task) {
    return typeof task.command === "string" ? task.command : undefined;
  }
  return undefined;
}

function forwardedSettings(cli: CliArguments): string[] {
  const args: string[] = ["--log-level", cli.logLevel];
  if (cli.toolsDir !== undefined) args.push("--tools-dir", cli.toolsDir);
  if (cli.timeoutSeconds !== undefined) args.push("--timeout", String(cli.timeoutSeconds));
  if (cli.logFile !== undefined) args.push("--log-file", cli.logFile);
  if (cli.noSandbox) args.push("--no-sandbox");
  if (cli.noNetwork) args.push("--no-network");
  if (cli.asyncByDefault) args.push("--async");
  if (cli.readOnly) args.push("--read-only");
  return args;
}
