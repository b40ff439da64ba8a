import { join } from "node:path";
import type { MtdfSubcommand, MtdfTool } from "./mtdf_types.ts";
import type { ToolFileProblem } from "./tool_file_problem.ts";
import { type ParsedToolFile, stepsOf, ToolFileValidator } from "./tool_file_validator.ts";

/** The text of one tool file and the path it is reported under. */
export interface ToolSource {
  path: string;
  text: string;
}

/** Tool files that loaded, and the problems of those that did not. */
export interface ToolCatalog {
  files: ParsedToolFile[];
  problems: ToolFileProblem[];
  /** How many files were read, loaded or not. */
  fileCount: number;
}

/** Reads every `*.json` and `*.jsonc` file of a directory, sorted by name. */
export async function readToolDirectory(directory: string): Promise<ToolSource[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(directory)) {
    if (entry.isFile && /\.jsonc?$/.test(entry.name)) names.push(entry.name);
  }
  names.sort();
  return await Promise.all(names.map(async (name) => {
    const path = join(directory, name);
    return { path, text: await Deno.readTextFile(path) };
  }));
}

/**
 * Checks every source; a bad file is reported and left out while the good ones load. Checks
 * across files too: a repeated tool name rejects the later file, and a sequence step must name
 * a tool and subcommand that loaded.
 */
export function loadToolCatalog(sources: ToolSource[]): ToolCatalog {
  const validator = new ToolFileValidator();
  const problems: ToolFileProblem[] = [];
  const byName = new Map<string, ParsedToolFile>();
  for (const source of sources) {
    const check = validator.check(source.path, source.text);
    if (!check.ok) {
      problems.push(...check.problems);
      continue;
    }
    const earlier = byName.get(check.file.name);
    if (earlier) {
      problems.push({
        path: source.path,
        ...check.file.document.locate(check.file.tool.name ? "/name" : "/command"),
        reason: `tool "${check.file.name}" is already defined in "${earlier.path}"; rename one`,
      });
      continue;
    }
    byName.set(check.file.name, check.file);
  }
  const files = dropUnresolvedSequences([...byName.values()], byName, problems);
  return { files, problems, fileCount: sources.length };
}

/** Rejects files whose sequence steps name something that did not load. */
function dropUnresolvedSequences(
  files: ParsedToolFile[],
  byName: Map<string, ParsedToolFile>,
  problems: ToolFileProblem[],
): ParsedToolFile[] {
  return files.filter((file) => {
    for (const { step, pointer } of stepsOf(file.tool)) {
      const target = byName.get(step.tool);
      const path = step.subcommand?.split("_") ?? [];
      if (target && hasLeaf(target.tool, path)) continue;
      const named = step.subcommand
        ? `"${step.tool}" subcommand "${step.subcommand}"`
        : `"${step.tool}"`;
      problems.push({
        path: file.path,
        ...file.document.locate(pointer),
        reason: `sequence step names unknown tool ${named}; define it or fix the step`,
      });
      return false;
    }
    return true;
  });
}

function hasLeaf(tool: MtdfTool, path: string[]): boolean {
  let level: MtdfSubcommand[] | undefined = tool.subcommand;
  if (path.length === 0) return level === undefined || isLoneDefault(level);
  for (const name of path) {
    const found: MtdfSubcommand | undefined = level?.find((s) => s.name === name);
    if (!found) return false;
    level = found.subcommand;
  }
  return level === undefined;
}

function isLoneDefault(subcommands: MtdfSubcommand[]): boolean {
  return subcommands.length === 1 && subcommands[0]?.name === "default";
}
