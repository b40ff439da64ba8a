import assert from "node:assert/strict";
import { join } from "node:path";
import {
  formatProblem,
  loadToolCatalog,
  MTDF_SCHEMA,
  MTDF_SCHEMA_PATH,
  readToolDirectory,
} from "../../src/config/mod.ts";
import { REPOSITORY_ROOT } from "../harness/repository.ts";

Deno.test("schemas/mtdf.schema.json is MTDF_SCHEMA as generated", async () => {
  const text = await Deno.readTextFile(join(REPOSITORY_ROOT, MTDF_SCHEMA_PATH));
  assert.equal(text, `${JSON.stringify(MTDF_SCHEMA, null, 2)}\n`);
});

Deno.test("every file in tools/ validates against the schema and the checks", async () => {
  const sources = await readToolDirectory(join(REPOSITORY_ROOT, "tools"));
  assert.ok(sources.length > 0);
  const catalog = loadToolCatalog(sources);
  assert.deepEqual(catalog.problems.map(formatProblem), []);
  assert.equal(catalog.files.length, sources.length);
});
