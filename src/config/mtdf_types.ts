/**
 * TypeScript shapes of the MCP tool-definition format (MTDF). Keys keep the JSON's snake_case so
 * code, schema and README spell each field one way.
 */

/** The value types an option or positional argument may take. */
export type MtdfValueType = "string" | "boolean" | "integer" | "number" | "array";

/** The element type of an `array` argument. */
export interface MtdfItems {
  type: "string" | "integer" | "number" | "boolean";
  format?: "path";
}

/** One option (`--name value`) or positional argument of a subcommand. */
export interface MtdfArgument {
  name: string;
  type: MtdfValueType;
  description?: string;
  required?: boolean;
  enum?: Array<string | number>;
  format?: "path";
  alias?: string;
  items?: MtdfItems;
}

/** MCP tool annotations, as the MCP specification names them. */
export interface MtdfAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** One step of a sequence: a call of another tool's subcommand with fixed arguments. */
export interface MtdfStep {
  tool: string;
  subcommand?: string;
  args?: Record<string, unknown>;
}

/** A subcommand; one with neither `subcommand` nor `sequence` is a leaf that runs a command. */
export interface MtdfSubcommand {
  name: string;
  description?: string;
  enabled?: boolean;
  timeout_seconds?: number;
  force_synchronous?: boolean;
  annotations?: MtdfAnnotations;
  options?: MtdfArgument[];
  positional_args?: MtdfArgument[];
  positional_args_first?: boolean;
  passthrough?: boolean;
  subcommand?: MtdfSubcommand[];
  sequence?: MtdfStep[];
  step_delay_ms?: number;
}

/** A whole tool file. */
export interface MtdfTool {
  name?: string;
  description: string;
  command: string;
  enabled?: boolean;
  timeout_seconds?: number;
  force_synchronous?: boolean;
  annotations?: MtdfAnnotations;
  hints?: Record<string, string>;
  availability_check?: { command: string; args?: string[] };
  install_instructions?: string;
  subcommand?: MtdfSubcommand[];
  sequence?: MtdfStep[];
  step_delay_ms?: number;
}
