import { Ajv, type ErrorObject } from "ajv";
import { MTDF_SCHEMA } from "./mtdf_schema.ts";
import type { MtdfStep, MtdfSubcommand, MtdfTool } from "./mtdf_types.ts";
import { JsoncDocument, ToolFileSyntaxError } from "./jsonc_document.ts";
import type { ToolFileProblem } from "./tool_file_problem.ts";

/** A tool file that parsed, matched the schema and passed the checks local to one file. */
export interface ParsedToolFile {
  path: string;
  tool: MtdfTool;
  /** The tool's name: `name`, else `command`. */
  name: string;
  document: JsoncDocument;
}

/** The outcome of checking one file: the tool, or the problems that reject it. */
export type ToolFileCheck =
  | { ok: true; file: ParsedToolFile }
  | { ok: false; problems: ToolFileProblem[] };

/** Compiles the MTDF schema once; the checker is reused for every file. */
export class ToolFileValidator {
  readonly #isTool;

  constructor() {
    const ajv = new Ajv({ allErrors: true, strict: false });
    this.#isTool = ajv.compile<MtdfTool>(MTDF_SCHEMA);
  }

  /** Parses JSONC text and checks it against the schema and the single-file rules. */
  check(path: string, text: string): ToolFileCheck {
    let document: JsoncDocument;
    try {
      document = new JsoncDocument(path, text);
    } catch (error) {
      if (!(error instanceof ToolFileSyntaxError)) throw error;
      return { ok: false, problems: [{ ...error, path, reason: error.reason }] };
    }
    const value = document.value;
    if (!this.#isTool(value)) {
      const errors = relevantErrors(this.#isTool.errors ?? []);
      return { ok: false, problems: errors.map((e) => schemaProblem(document, e)) };
    }
    const problems = checkSubcommands(document, value.subcommand ?? [], "");
    if (problems.length > 0) return { ok: false, problems };
    return { ok: true, file: { path, tool: value, name: value.name ?? value.command, document } };
  }
}

/** Drops the noise ajv adds around `if`/`then` so each problem is said once. */
function relevantErrors(errors: ErrorObject[]): ErrorObject[] {
  const meaningful = errors.filter((e) => e.keyword !== "if");
  const seen = new Set<string>();
  return meaningful.filter((e) => {
    const key = `${e.instancePath} ${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function schemaProblem(document: JsoncDocument, error: ErrorObject): ToolFileProblem {
  const where = error.instancePath === "" ? "the file" : `"${error.instancePath}"`;
  let detail = error.message ?? "is invalid";
  if (error.keyword === "additionalProperties") {
    detail = `has unknown field "${String(error.params.additionalProperty)}"; remove or rename it`;
  } else if (error.keyword === "enum" && Array.isArray(error.params.allowedValues)) {
    detail = `must be one of ${error.params.allowedValues.map((v) => `"${v}"`).join(", ")}`;
  }
  const pointer = error.keyword === "additionalProperties"
    ? `${error.instancePath}/${String(error.params.additionalProperty)}`
    : error.instancePath;
  const next = detail.includes(";") ? "" : "; fix it (the format is in schemas/mtdf.schema.json)";
  return { path: document.path, ...document.locate(pointer), reason: `${where} ${detail}${next}` };
}

function checkSubcommands(
  document: JsoncDocument,
  subcommands: MtdfSubcommand[],
  pointer: string,
): ToolFileProblem[] {
  const problems: ToolFileProblem[] = [];
  const seen = new Set<string>();
  subcommands.forEach((subcommand, index) => {
    const here = `${pointer}/subcommand/${index}`;
    const at = (reason: string, suffix = "/name") => ({
      path: document.path,
      ...document.locate(here + suffix),
      reason,
    });
    if (subcommand.name.includes("_")) {
      problems.push(at(`subcommand "${subcommand.name}" contains "_"; rename it (use "-")`));
    }
    if (seen.has(subcommand.name)) {
      problems.push(at(`subcommand "${subcommand.name}" is defined twice; rename one`));
    }
    seen.add(subcommand.name);
    if (subcommand.subcommand && subcommand.sequence) {
      problems.push(
        at(`subcommand "${subcommand.name}" has both "subcommand" and "sequence"; keep one`),
      );
    }
    problems.push(...checkSubcommands(document, subcommand.subcommand ?? [], here));
  });
  return problems;
}

/** Every step of a tool file, with the JSON pointer of each, for cross-file checks. */
export function stepsOf(tool: MtdfTool): Array<{ step: MtdfStep; pointer: string }> {
  const found = (tool.sequence ?? []).map((step, i) => ({ step, pointer: `/sequence/${i}` }));
  const walk = (subcommands: MtdfSubcommand[], pointer: string): void => {
    subcommands.forEach((subcommand, index) => {
      const here = `${pointer}/subcommand/${index}`;
      (subcommand.sequence ?? []).forEach((step, i) =>
        found.push({ step, pointer: `${here}/sequence/${i}` })
      );
      walk(subcommand.subcommand ?? [], here);
    });
  };
  walk(tool.subcommand ?? [], "");
  return found;
}
