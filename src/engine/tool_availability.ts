import { delimiter, isAbsolute, join } from "node:path";
import type { ParsedToolFile } from "../config/mod.ts";

/** A tool file left out because its command is not installed. */
export interface MissingTool {
  name: string;
  /** The executable that was not found. */
  command: string;
  installInstructions: string | undefined;
}

/** Tool files whose command is installed, and those left out. */
export interface Availability {
  available: ParsedToolFile[];
  missing: MissingTool[];
}

/**
 * Splits tool files by whether their command (the `availability_check` command, else
 * `command`) is an executable on PATH. A lookup, not a run, so startup stays fast; `doctor`
 * runs each check for real.
 */
export function partitionByAvailability(
  files: ParsedToolFile[],
  options: { path?: string } = {},
): Availability {
  const { path = Deno.env.get("PATH") ?? "" } = options;
  const available: ParsedToolFile[] = [];
  const missing: MissingTool[] = [];
  for (const file of files) {
    const command = file.tool.availability_check?.command ?? file.tool.command;
    if (command === "sequence" || findExecutable(command, path)) available.push(file);
    else {missing.push({
        name: file.name,
        command,
        installInstructions: file.tool.install_instructions,
      });}
  }
  return { available, missing };
}

/** The full path of an executable found on PATH (or the path itself when absolute), else undefined. */
export function findExecutable(command: string, path: string): string | undefined {
  const candidates = isAbsolute(command) || command.includes("/")
    ? [command]
    : path.split(delimiter).filter(Boolean).map((directory) => join(directory, command));
  return candidates.find(isExecutableFile);
}

function isExecutableFile(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0;
  } catch {
    return false;
  }
}
