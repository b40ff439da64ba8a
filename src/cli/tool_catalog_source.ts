import { existsSync } from "node:fs";
import {
  bundledToolSources,
  loadToolCatalog,
  readToolDirectory,
  type ToolCatalog,
} from "../config/mod.ts";

/** The repository-local tools directory used when `--tools-dir` is not given and it exists. */
export const PROJECT_TOOLS_DIRECTORY = ".ahma/tools";

/** A loaded catalog and where it came from, for the startup summary. */
export interface CatalogLoad {
  catalog: ToolCatalog;
  origin: string;
}

/** Loads `--tools-dir`, else `./.ahma/tools` when it exists, else the bundled catalog. */
export async function loadCatalog(toolsDir: string | undefined): Promise<CatalogLoad> {
  const directory = toolsDir ??
    (existsSync(PROJECT_TOOLS_DIRECTORY) ? PROJECT_TOOLS_DIRECTORY : undefined);
  if (directory === undefined) {
    return { catalog: loadToolCatalog(bundledToolSources()), origin: "the bundled catalog" };
  }
  try {
    return { catalog: loadToolCatalog(await readToolDirectory(directory)), origin: directory };
  } catch (error) {
    throw new RangeError(
      `Cannot read the tools directory "${directory}": ${
        error instanceof Error ? error.message : error
      }; pass an existing directory with --tools-dir`,
      { cause: error },
    );
  }
}
