import type { MtdfArgument } from "../config/mod.ts";
import type { JsonSchemaObject } from "./tool_spec.ts";

/** Builds the JSON Schema of a tool's arguments, the meta-parameters included. */
export function buildInputSchema(
  argumentsOfTool: MtdfArgument[],
  options: { passthrough?: boolean } = {},
): JsonSchemaObject {
  const { passthrough = false } = options;
  const properties: JsonSchemaObject["properties"] = {};
  const required: string[] = [];
  for (const argument of argumentsOfTool) {
    const key = parameterName(argument);
    properties[key] = propertySchema(argument);
    if (argument.required) required.push(key);
  }
  if (passthrough) {
    properties.args = {
      type: "array",
      items: { type: "string" },
      description: "Extra arguments passed through after a final `--`.",
    };
  }
  Object.assign(properties, META_PARAMETER_SCHEMAS);
  return {
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** The call-argument name of an option: its name without leading dashes. */
export function parameterName(argument: MtdfArgument): string {
  return argument.name.replace(/^-+/, "");
}

function propertySchema(argument: MtdfArgument): Record<string, unknown> {
  const schema: Record<string, unknown> = { type: argument.type };
  if (argument.description) schema.description = argument.description;
  if (argument.enum) schema.enum = argument.enum;
  if (argument.format === "path") schema.description = withPathNote(argument.description);
  if (argument.items) {
    schema.items = { type: argument.items.type };
    if (argument.items.format === "path") schema.description = withPathNote(argument.description);
  }
  return schema;
}

function withPathNote(description = ""): string {
  return `${description}${description ? " " : ""}(path in the workspace)`.trim();
}

/** The longest timeout a call or tool may set: one day (timers overflow past 24.8 days). */
export const MAX_TIMEOUT_SECONDS = 86_400;

const META_PARAMETER_SCHEMAS = {
  working_directory: {
    type: "string",
    description: "Run here (in the workspace; default: its root)",
  },
  execution_mode: {
    type: "string",
    enum: ["sync", "async"],
    description: "async: return an operation_id at once",
  },
  timeout_seconds: {
    type: "number",
    exclusiveMinimum: 0,
    maximum: MAX_TIMEOUT_SECONDS,
    description: "Kill after this many seconds",
  },
};
