import type { MtdfArgument } from "../config/mod.ts";
import { parameterName } from "./input_schema.ts";
import type { CommandToolSpec } from "./tool_spec.ts";

/**
 * Builds the argv of a call. No shell ever sees it: each value is one literal argument.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildArgv } from "./argv_builder.ts";
 * const spec = {
 *   baseArgv: ["git", "log"],
 *   options: [{ name: "max-count", type: "integer" as const, alias: "n" }],
 *   positionalArgs: [{ name: "path", type: "string" as const }],
 *   positionalArgsFirst: false,
 *   passthrough: false,
 * };
 * assert.deepEqual(buildArgv(spec, { "max-count": 3, path: "src" }), ["git", "log", "-n", "3", "src"]);
 * ```
 */
export function buildArgv(
  spec: Pick<
    CommandToolSpec,
    "baseArgv" | "options" | "positionalArgs" | "positionalArgsFirst" | "passthrough"
  >,
  args: Record<string, unknown>,
): string[] {
  const options = spec.options.flatMap((option) =>
    optionWords(option, args[parameterName(option)])
  );
  const positionals = spec.positionalArgs.flatMap((arg) => valueWords(args[parameterName(arg)]));
  const ordered = spec.positionalArgsFirst
    ? [...positionals, ...options]
    : [...options, ...positionals];
  const extra = spec.passthrough && Array.isArray(args.args) && args.args.length > 0
    ? ["--", ...args.args.map(String)]
    : [];
  return [...spec.baseArgv, ...ordered, ...extra];
}

/** The words one option contributes: none when absent or false, a bare flag when true. */
function optionWords(option: MtdfArgument, value: unknown): string[] {
  if (value === undefined || value === null || value === false) return [];
  const flag = flagOf(option);
  if (value === true) return [flag];
  if (Array.isArray(value)) return value.flatMap((item) => [flag, String(item)]);
  return [flag, String(value)];
}

function flagOf(option: MtdfArgument): string {
  if (option.alias) return option.alias.startsWith("-") ? option.alias : `-${option.alias}`;
  return option.name.startsWith("-") ? option.name : `--${option.name}`;
}

function valueWords(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map(String);
  return [String(value)];
}
