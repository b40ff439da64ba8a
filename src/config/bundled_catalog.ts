import cargo from "../../tools/cargo.json" with { type: "json" };
import deno from "../../tools/deno_cli.json" with { type: "json" };
import gh from "../../tools/gh.json" with { type: "json" };
import git from "../../tools/git.json" with { type: "json" };
import npm from "../../tools/npm.json" with { type: "json" };
import pytest from "../../tools/pytest.json" with { type: "json" };
import python from "../../tools/python.json" with { type: "json" };
import type { ToolSource } from "./tool_catalog.ts";

/**
 * The bundled `tools/` catalog, imported so the compiled binary carries it and needs no file
 * access to load it. `tests/catalog/catalog_files_test.ts` fails when a file is not listed.
 * The Deno tool's file is `deno_cli.json`: a file named `deno.json` would be read by Deno itself
 * as the configuration of everything in `tools/`.
 */
const BUNDLED = {
  "cargo.json": cargo,
  "deno_cli.json": deno,
  "gh.json": gh,
  "git.json": git,
  "npm.json": npm,
  "pytest.json": pytest,
  "python.json": python,
};

/** The bundled tool files, as sources reported under `(bundled)/NAME`. */
export function bundledToolSources(): ToolSource[] {
  return Object.entries(BUNDLED).map(([name, value]) => ({
    path: `(bundled)/${name}`,
    text: JSON.stringify(value, null, 2),
  }));
}

/** The file names the bundle holds. */
export const BUNDLED_TOOL_FILES: readonly string[] = Object.keys(BUNDLED);
