import assert from "node:assert/strict";
import { basename, join } from "node:path";
import {
  BUNDLED_TOOL_FILES,
  bundledToolSources,
  formatProblem,
  loadToolCatalog,
  readToolDirectory,
} from "../../src/config/mod.ts";
import { REPOSITORY_ROOT } from "../harness/repository.ts";

const BUNDLED_TOOLS = join(REPOSITORY_ROOT, "tools");
const PROJECT_TOOLS = join(REPOSITORY_ROOT, ".ahma", "tools");

Deno.test("every file in tools/ loads with no problem", async () => {
  const sources = await readToolDirectory(BUNDLED_TOOLS);
  const catalog = loadToolCatalog(sources);
  assert.deepEqual(catalog.problems.map(formatProblem), []);
  assert.equal(catalog.files.length, sources.length);
});

Deno.test("BUNDLED_TOOL_FILES lists exactly the files in tools/", async () => {
  const names = (await readToolDirectory(BUNDLED_TOOLS)).map((source) => basename(source.path));
  assert.deepEqual([...BUNDLED_TOOL_FILES].sort(), names);
});

Deno.test("the bundled catalog loads as the files in tools/ do", async () => {
  const fromDirectory = loadToolCatalog(await readToolDirectory(BUNDLED_TOOLS));
  const bundled = loadToolCatalog(bundledToolSources());
  assert.deepEqual(bundled.problems.map(formatProblem), []);
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  assert.deepEqual(
    bundled.files.sort(byName).map((file) => file.tool),
    fromDirectory.files.sort(byName).map((file) => file.tool),
  );
});

Deno.test("no file in tools/ or .ahma/tools/ is named deno.json or deno.jsonc", async () => {
  // Deno reads such a file as the configuration of its directory (fmt, lint and tasks).
  for (const directory of [BUNDLED_TOOLS, PROJECT_TOOLS]) {
    const names = (await readToolDirectory(directory)).map((source) => basename(source.path));
    assert.ok(!names.some((name) => /^deno\.jsonc?$/.test(name)), `${directory}: ${names}`);
  }
});

Deno.test("every file in .ahma/tools/ loads with no problem", async () => {
  const sources = await readToolDirectory(PROJECT_TOOLS);
  const catalog = loadToolCatalog(sources);
  assert.deepEqual(catalog.problems.map(formatProblem), []);
  assert.equal(catalog.files.length, sources.length);
});
