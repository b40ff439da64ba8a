import type {
  MtdfAnnotations,
  MtdfStep,
  MtdfSubcommand,
  MtdfTool,
  ParsedToolFile,
} from "../config/mod.ts";
import { buildInputSchema } from "./input_schema.ts";
import type { SequenceToolSpec, ToolSpec } from "./tool_spec.ts";

/** What a leaf inherits from the levels above it. */
interface Inherited {
  path: string[];
  annotations: MtdfAnnotations;
  timeoutSeconds: number | undefined;
  forceSynchronous: boolean | undefined;
}

/** Turns loaded tool files into callable tools, one per leaf subcommand. */
export function buildToolSpecs(files: ParsedToolFile[]): ToolSpec[] {
  return files.filter((file) => file.tool.enabled !== false).flatMap((file) => {
    const { tool } = file;
    const top: Inherited = {
      path: [],
      annotations: tool.annotations ?? {},
      timeoutSeconds: tool.timeout_seconds,
      forceSynchronous: tool.force_synchronous,
    };
    if (tool.command === "sequence" || !tool.subcommand) {
      return [leafSpec(file, { name: "default", sequence: tool.sequence }, top)];
    }
    const bare = tool.subcommand.length === 1 && tool.subcommand[0]?.name === "default";
    return tool.subcommand.flatMap((sub) => specsOf(file, sub, top, bare));
  });
}

/** The MCP tool name a sequence step refers to. */
export function stepTargetName(step: MtdfStep): string {
  return step.subcommand ? `${step.tool}_${step.subcommand}` : step.tool;
}

function specsOf(
  file: ParsedToolFile,
  subcommand: MtdfSubcommand,
  parent: Inherited,
  bare: boolean,
): ToolSpec[] {
  if (subcommand.enabled === false) return [];
  const here: Inherited = {
    path: bare ? [] : [...parent.path, subcommand.name],
    annotations: { ...parent.annotations, ...subcommand.annotations },
    timeoutSeconds: subcommand.timeout_seconds ?? parent.timeoutSeconds,
    forceSynchronous: subcommand.force_synchronous ?? parent.forceSynchronous,
  };
  if (subcommand.subcommand) {
    return subcommand.subcommand.flatMap((child) => specsOf(file, child, here, false));
  }
  return [leafSpec(file, subcommand, here)];
}

function leafSpec(file: ParsedToolFile, leaf: MtdfSubcommand, inherited: Inherited): ToolSpec {
  const { tool } = file;
  const subcommandName = inherited.path.join("_") || "default";
  const base = {
    name: [file.name, ...inherited.path].join("_"),
    description: leaf.description ?? tool.description,
    annotations: inherited.annotations,
    sourcePath: file.path,
    toolName: file.name,
    subcommandName,
    timeoutSeconds: inherited.timeoutSeconds,
    forceSynchronous: inherited.forceSynchronous,
    hint: hintFor(tool, leaf.name),
  };
  if (leaf.sequence) {
    return sequenceSpec(base, leaf.sequence, leaf.step_delay_ms ?? tool.step_delay_ms);
  }
  const options = leaf.options ?? [];
  const positionalArgs = leaf.positional_args ?? [];
  const passthrough = leaf.passthrough ?? false;
  return {
    ...base,
    kind: "command",
    inputSchema: buildInputSchema([...options, ...positionalArgs], { passthrough }),
    baseArgv: [tool.command, ...inherited.path],
    options,
    positionalArgs,
    positionalArgsFirst: leaf.positional_args_first ?? false,
    passthrough,
  };
}

function sequenceSpec(
  base: Omit<SequenceToolSpec, "kind" | "inputSchema" | "steps" | "stepDelayMs">,
  steps: MtdfStep[],
  stepDelayMs = 0,
): SequenceToolSpec {
  return {
    ...base,
    kind: "sequence",
    inputSchema: buildInputSchema([]),
    steps: steps.map((step) => ({ toolName: stepTargetName(step), args: step.args ?? {} })),
    stepDelayMs,
  };
}

function hintFor(tool: MtdfTool, subcommandName: string): string | undefined {
  return tool.hints?.[subcommandName] ?? tool.hints?.default;
}

/** A generated tool whose name an earlier tool (or a built-in) already has; it is left out. */
export interface NameCollision {
  spec: ToolSpec;
  /** Where the name was taken first: a tool file's path, or "(built in)". */
  takenBy: string;
}

/**
 * Keeps the first tool of each name, the reserved names counting as taken, and reports the
 * rest: `sh` with subcommand `run` and a tool named `sh_run` would both be `sh_run`.
 */
export function dropNameCollisions(
  specs: ToolSpec[],
  reserved: readonly string[] = [],
): { unique: ToolSpec[]; collisions: NameCollision[] } {
  const taken = new Map<string, string>(reserved.map((name) => [name, "(built in)"]));
  const unique: ToolSpec[] = [];
  const collisions: NameCollision[] = [];
  for (const spec of specs) {
    const takenBy = taken.get(spec.name);
    if (takenBy !== undefined) {
      collisions.push({ spec, takenBy });
      continue;
    }
    taken.set(spec.name, spec.sourcePath);
    unique.push(spec);
  }
  return { unique, collisions };
}
