import type { MtdfAnnotations, MtdfArgument } from "../config/mod.ts";

/** A JSON Schema object as sent in tools/list. */
export type JsonSchemaObject = {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties: false;
};

/** What every generated tool shares, whatever it runs. */
interface ToolSpecBase {
  /** The MCP tool name: `{tool}_{subcommand}` with nested levels joined by `_`. */
  name: string;
  description: string;
  inputSchema: JsonSchemaObject;
  annotations: MtdfAnnotations;
  /** The tool file it came from, for messages. */
  sourcePath: string;
  /** The MTDF tool name, for hints and messages. */
  toolName: string;
  /** The subcommand path as written in the file (`default` for a bare tool). */
  subcommandName: string;
  timeoutSeconds: number | undefined;
  /** `force_synchronous` with the subcommand's winning over the tool's. */
  forceSynchronous: boolean | undefined;
  /** One line of guidance for the agent while this runs in the background. */
  hint: string | undefined;
}

/** A tool that runs one command line. */
export interface CommandToolSpec extends ToolSpecBase {
  kind: "command";
  /** The executable followed by the subcommand words. */
  baseArgv: string[];
  options: MtdfArgument[];
  positionalArgs: MtdfArgument[];
  positionalArgsFirst: boolean;
  passthrough: boolean;
}

/** A tool that runs other tools one after another. */
export interface SequenceToolSpec extends ToolSpecBase {
  kind: "sequence";
  steps: Array<{ toolName: string; args: Record<string, unknown> }>;
  stepDelayMs: number;
}

/** One callable tool generated from a tool file. */
export type ToolSpec = CommandToolSpec | SequenceToolSpec;

/** The call arguments that steer ahma and are never passed to the command. */
export const META_PARAMETERS = ["working_directory", "execution_mode", "timeout_seconds"] as const;
