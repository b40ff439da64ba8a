import { buildInputSchema } from "./input_schema.ts";
import type { CommandToolSpec } from "./tool_spec.ts";

/** The name of the built-in tool that runs any shell command line inside the sandbox. */
export const SANDBOXED_SHELL = "sandboxed_shell";

/** `sandboxed_shell`: a command line run by `sh -c`, confined like every other tool. */
export function sandboxedShellSpec(): CommandToolSpec {
  const command = {
    name: "command",
    type: "string" as const,
    required: true,
    description: "The shell command line, run by `sh -c`; stderr is merged into stdout.",
  };
  return {
    kind: "command",
    name: SANDBOXED_SHELL,
    description:
      "Run a shell command line inside the workspace sandbox: the system is read-only, only the workspace is writable, the home directory is hidden.",
    inputSchema: buildInputSchema([command]),
    annotations: { destructiveHint: true, openWorldHint: false },
    sourcePath: "(built in)",
    toolName: SANDBOXED_SHELL,
    subcommandName: "default",
    timeoutSeconds: undefined,
    forceSynchronous: undefined,
    hint: undefined,
    baseArgv: ["sh", "-c"],
    options: [],
    positionalArgs: [command],
    positionalArgsFirst: false,
    passthrough: false,
  };
}
