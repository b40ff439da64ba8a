import assert from "node:assert/strict";
import { ahmaCommand, runAhmaOnce } from "../harness/ahma_process.ts";
import { fixtureArgs } from "../harness/repository.ts";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";

Deno.test("ahma list-tools prints another server's tools, as text and as JSON", async () => {
  await using workspace = await makeTempWorkspace();
  const server = ahmaCommand(["--mode", "stdio", ...fixtureArgs(workspace.path)]);
  const text = await runAhmaOnce(["list-tools", "--", server.command, ...server.args]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^echo: /m);
  assert.match(text.stdout, /^ {4}format: string \(required\)/m);
  const json = await runAhmaOnce([
    "list-tools",
    "--format",
    "json",
    "--",
    server.command,
    ...server.args,
  ]);
  const tools = JSON.parse(json.stdout) as Array<{ name: string }>;
  assert.ok(tools.some((tool) => tool.name === "sandboxed_shell"));
});
