import {
  formatProblem,
  loadToolCatalog,
  readToolDirectory,
  type ToolSource,
} from "../config/mod.ts";
import type { CliArguments } from "./cli_options.ts";
import type { Logger } from "./logger.ts";
import { loadCatalog } from "./tool_catalog_source.ts";

/**
 * `ahma validate [PATH...]`: checks tool files (each directory as one catalog, loose files
 * together) with the checks startup runs. Prints each problem; returns 1 when any file is bad.
 */
export async function validateCommand(cli: CliArguments, logger: Logger): Promise<number> {
  const catalogs = cli.rest.length === 0
    ? [(await loadCatalog(cli.toolsDir)).catalog]
    : (await groupSources(cli.rest)).map(loadToolCatalog);
  let files = 0;
  const bad = new Set<string>();
  for (const catalog of catalogs) {
    files += catalog.fileCount;
    for (const problem of catalog.problems) {
      logger.error(formatProblem(problem));
      bad.add(problem.path);
    }
  }
  const summary = `${files - bad.size} of ${files} tool files valid`;
  if (bad.size === 0) {
    logger.info(summary);
    return 0;
  }
  logger.error(`${summary}; invalid: ${[...bad].join(", ")}`);
  return 1;
}

async function groupSources(paths: string[]): Promise<ToolSource[][]> {
  const groups: ToolSource[][] = [];
  const loose: ToolSource[] = [];
  for (const path of paths) {
    const info = await Deno.stat(path).catch((error) => {
      throw new RangeError(
        `Cannot validate "${path}": it does not exist; pass a tool file or directory`,
        { cause: error },
      );
    });
    if (info.isDirectory) groups.push(await readToolDirectory(path));
    else loose.push({ path, text: await Deno.readTextFile(path) });
  }
  return loose.length > 0 ? [...groups, loose] : groups;
}
