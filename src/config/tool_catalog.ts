import { join } from "node:path";
import type { MtdfStep, MtdfSubcommand, MtdfTool } from "./mtdf_types.ts";
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
  const resolved = dropUnresolvedSequences([...byName.values()], byName, problems);
  const files = dropUnresolvedSequences(
    dropSequenceCycles(resolved, byName, problems),
    byName,
    problems,
  );
  return { files, problems, fileCount: sources.length };
}

/**
 * Rejects files whose sequence steps name something that did not load. Repeats until nothing
 * changes: rejecting one sequence leaves the steps naming it unresolved in turn.
 */
function dropUnresolvedSequences(
  files: ParsedToolFile[],
  byName: Map<string, ParsedToolFile>,
  problems: ToolFileProblem[],
): ParsedToolFile[] {
  const kept = files.filter((file) => {
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
      byName.delete(file.name);
      return false;
    }
    return true;
  });
  return kept.length === files.length ? kept : dropUnresolvedSequences(kept, byName, problems);
}

/** True when `path` names an enabled leaf (a command or a sequence) of an enabled tool. */
function hasLeaf(tool: MtdfTool, path: string[]): boolean {
  return findLeaf(tool, path) !== undefined;
}

/** The enabled leaf at `path` (the tool itself for a bare one), else undefined. */
function findLeaf(tool: MtdfTool, path: string[]): MtdfSubcommand | MtdfTool | undefined {
  if (tool.enabled === false) return undefined;
  let level: MtdfSubcommand[] | undefined = tool.subcommand;
  if (path.length === 0) {
    if (level === undefined) return tool;
    return isLoneDefault(level) && level[0]?.enabled !== false ? level[0] : undefined;
  }
  let found: MtdfSubcommand | undefined;
  for (const name of path) {
    found = level?.find((s) => s.name === name && s.enabled !== false);
    if (!found) return undefined;
    level = found.subcommand;
  }
  return level === undefined ? found : undefined;
}

/**
 * Rejects files whose sequences reach themselves again through their steps: such a call would
 * never end.
 */
function dropSequenceCycles(
  files: ParsedToolFile[],
  byName: Map<string, ParsedToolFile>,
  problems: ToolFileProblem[],
): ParsedToolFile[] {
  const stepsOfLeaf = (leaf: MtdfSubcommand | MtdfTool | undefined): MtdfStep[] =>
    leaf?.sequence ?? [];
  const cycleFrom = (start: MtdfStep[], trail: string[]): string[] | undefined => {
    for (const step of start) {
      const key = `${step.tool}${step.subcommand ? `_${step.subcommand}` : ""}`;
      if (trail.includes(key)) return [...trail, key];
      const target = byName.get(step.tool);
      const leaf = target && findLeaf(target.tool, step.subcommand?.split("_") ?? []);
      const cycle = cycleFrom(stepsOfLeaf(leaf), [...trail, key]);
      if (cycle) return cycle;
    }
    return undefined;
  };
  return files.filter((file) => {
    for (const { pointer, owner } of sequenceOwners(file)) {
      const cycle = cycleFrom(stepsOfLeaf(owner.leaf), [owner.name]);
      if (!cycle) continue;
      problems.push({
        path: file.path,
        ...file.document.locate(pointer),
        reason: `sequence steps form a cycle (${cycle.join(" -> ")}); break it`,
      });
      byName.delete(file.name);
      return false;
    }
    return true;
  });
}

/** Each sequence leaf of a file, with the name a step would call it by. */
function sequenceOwners(
  file: ParsedToolFile,
): Array<{ pointer: string; owner: { name: string; leaf: MtdfSubcommand | MtdfTool } }> {
  const found: Array<
    { pointer: string; owner: { name: string; leaf: MtdfSubcommand | MtdfTool } }
  > = [];
  if (file.tool.sequence) {
    found.push({ pointer: "/sequence", owner: { name: file.name, leaf: file.tool } });
  }
  const walk = (subcommands: MtdfSubcommand[], pointer: string, path: string[]): void => {
    subcommands.forEach((subcommand, index) => {
      const here = `${pointer}/subcommand/${index}`;
      const names = [...path, subcommand.name];
      if (subcommand.sequence) {
        found.push({
          pointer: `${here}/sequence`,
          owner: { name: [file.name, ...names].join("_"), leaf: subcommand },
        });
      }
      walk(subcommand.subcommand ?? [], here, names);
    });
  };
  walk(file.tool.subcommand ?? [], "", []);
  return found;
}

function isLoneDefault(subcommands: MtdfSubcommand[]): boolean {
  return subcommands.length === 1 && subcommands[0]?.name === "default";
}
