import { fileURLToPath as fromFileUrl } from "node:url";

/** The repository root (the directory holding deno.json). */
export const REPOSITORY_ROOT = fromFileUrl(new URL("../../", import.meta.url));

/** The fixture tool files that load. */
export const FIXTURE_TOOLS = fromFileUrl(new URL("../fixtures/tools/", import.meta.url));

/** Fixture tool files with one named flaw each. */
export const BROKEN_TOOLS = fromFileUrl(new URL("../fixtures/broken_tools/", import.meta.url));

/** ahma arguments serving the fixture tools in `scope`, then any `extra` ones. */
export function fixtureArgs(scope: string, ...extra: string[]): string[] {
  return ["--tools-dir", FIXTURE_TOOLS, "--sandbox-scope", scope, ...extra];
}
