import git from "../../tools/git.json" with { type: "json" };
import type { ToolSource } from "./tool_catalog.ts";

/**
 * The bundled `tools/` catalog, imported so the compiled binary carries it and needs no file
 * access to load it. `tests/config/bundled_catalog_test.ts` fails when a file is not listed.
 */
const BUNDLED = { "git.json": git };

/** The bundled tool files, as sources reported under `(bundled)/NAME`. */
export function bundledToolSources(): ToolSource[] {
  return Object.entries(BUNDLED).map(([name, value]) => ({
    path: `(bundled)/${name}`,
    text: JSON.stringify(value, null, 2),
  }));
}

/** The file names the bundle holds. */
export const BUNDLED_TOOL_FILES: readonly string[] = Object.keys(BUNDLED);
