/**
 * The JSON Schema of MTDF: the one source of truth. `ahma schema` writes it to
 * `schemas/mtdf.schema.json`, and `deno task quality` fails when that file is stale.
 */

/** Where the generated schema lives in the repository. */
export const MTDF_SCHEMA_PATH = "schemas/mtdf.schema.json";

// "_" is allowed by the pattern and refused by a semantic check, whose message says what to do.
const NAME_PATTERN = "^[A-Za-z0-9][A-Za-z0-9_-]*$";

const annotations = {
  type: "object",
  description: "MCP tool annotations sent in tools/list; a subcommand's override its tool's.",
  additionalProperties: false,
  properties: {
    title: { type: "string" },
    readOnlyHint: { type: "boolean", description: "The tool does not modify its environment." },
    destructiveHint: { type: "boolean", description: "The tool may destroy or overwrite data." },
    idempotentHint: { type: "boolean", description: "Repeating a call has no further effect." },
    openWorldHint: { type: "boolean", description: "The tool reaches outside the workspace." },
  },
};

const argument = {
  type: "object",
  additionalProperties: false,
  required: ["name", "type"],
  properties: {
    name: {
      type: "string",
      pattern: "^-{0,2}[A-Za-z0-9][A-Za-z0-9_.-]*$",
      description: "Parameter name; an option becomes `--name` unless it already starts with `-`.",
    },
    type: { enum: ["string", "boolean", "integer", "number", "array"] },
    description: { type: "string" },
    required: { type: "boolean" },
    enum: { type: "array", items: { type: ["string", "number"] }, minItems: 1 },
    format: {
      const: "path",
      description: "The value must resolve, after symlinks, inside the sandbox scope.",
    },
    alias: {
      type: "string",
      pattern: "^[A-Za-z0-9]$|^-",
      description:
        "Written as `-alias` instead of `--name` (a value starting with `-` is used as given).",
    },
    items: {
      type: "object",
      additionalProperties: false,
      required: ["type"],
      properties: {
        type: { enum: ["string", "integer", "number", "boolean"] },
        format: { const: "path" },
      },
    },
  },
  if: { properties: { type: { const: "array" } } },
  then: { required: ["items"] },
};

const step = {
  type: "object",
  additionalProperties: false,
  required: ["tool"],
  properties: {
    tool: { type: "string", description: "The `name` of another tool (or this one)." },
    subcommand: {
      type: "string",
      description: "Subcommand path inside that tool, levels joined by `_`; omit for a bare tool.",
    },
    args: { type: "object", description: "Arguments passed to the step, as a call would." },
  },
};

const behaviour = {
  timeout_seconds: { type: "number", exclusiveMinimum: 0, maximum: 86_400 },
  force_synchronous: {
    type: "boolean",
    description: "true: always runs synchronously; false: runs in the background by default.",
  },
  annotations,
  sequence: { type: "array", items: step, minItems: 1 },
  step_delay_ms: { type: "integer", minimum: 0, description: "Pause between sequence steps." },
};

const subcommand = {
  type: "object",
  additionalProperties: false,
  required: ["name"],
  properties: {
    name: {
      type: "string",
      pattern: NAME_PATTERN,
      description: "Subcommand name; `_` is not allowed, it separates the levels of a tool name.",
    },
    description: { type: "string" },
    enabled: { type: "boolean" },
    ...behaviour,
    options: { type: "array", items: argument },
    positional_args: { type: "array", items: argument },
    positional_args_first: { type: "boolean" },
    passthrough: {
      type: "boolean",
      description: "Adds an `args` array parameter appended after a final `--`.",
    },
    subcommand: { type: "array", items: { $ref: "#/$defs/subcommand" }, minItems: 1 },
  },
};

/** The MTDF JSON Schema (draft-07, which editors and ajv read without extra setup). */
export const MTDF_SCHEMA = {
  $schema: "http://json-schema.org/draft-07/schema#",
  title: "ahma MCP tool definition (MTDF)",
  type: "object",
  additionalProperties: false,
  required: ["description", "command"],
  properties: {
    $schema: { type: "string" },
    name: {
      type: "string",
      pattern: NAME_PATTERN,
      description: "Tool name; defaults to `command`.",
    },
    description: { type: "string", minLength: 1 },
    command: {
      type: "string",
      minLength: 1,
      description: "The executable, or `sequence` for a tool made of other tools' calls.",
    },
    enabled: { type: "boolean" },
    ...behaviour,
    hints: {
      type: "object",
      additionalProperties: { type: "string" },
      description:
        "Subcommand name (or `default`) to one line of guidance sent with a background start.",
    },
    availability_check: {
      type: "object",
      additionalProperties: false,
      required: ["command"],
      properties: {
        command: { type: "string" },
        args: { type: "array", items: { type: "string" } },
      },
    },
    install_instructions: { type: "string" },
    subcommand: { type: "array", items: { $ref: "#/$defs/subcommand" }, minItems: 1 },
  },
  $defs: { subcommand },
} as const;
