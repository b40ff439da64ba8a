import assert from "node:assert/strict";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";
import { FIXTURE_TOOLS } from "../harness/repository.ts";
import { resultText, startAhma } from "../harness/ahma_process.ts";

Deno.test("ahma --mode stdio lists fixture tools and runs one", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startAhma([
    "--tools-dir",
    FIXTURE_TOOLS,
    "--sandbox-scope",
    workspace.path,
  ]);
  const { tools } = await ahma.client.listTools();
  assert.ok(tools.some((tool) => tool.name === "echo"));
  const result = await ahma.client.callTool({
    name: "echo",
    arguments: { format: "%s\\n", text: "a b; $(rm -rf /)", flag: true },
  });
  assert.equal(result.isError, false);
  assert.match(resultText(result), /^--text\na b; \$\(rm -rf \/\)\n--flag\n/);
});
