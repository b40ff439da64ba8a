import assert from "node:assert/strict";
import { join } from "node:path";
import { type AhmaSession, resultText, startAhma } from "../harness/ahma_process.ts";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";

/** Runs a command line through `sandboxed_shell`; returns its rendered output. */
async function shell(ahma: AhmaSession, command: string): Promise<string> {
  const result = await ahma.client.callTool({ name: "sandboxed_shell", arguments: { command } });
  return resultText(result);
}

Deno.test("sandboxed_shell writes inside a scope under /tmp, visible on the host", async () => {
  await using workspace = await makeTempWorkspace();
  assert.ok(workspace.path.startsWith("/tmp/"));
  await using ahma = await startAhma(["--sandbox-scope", workspace.path]);
  const text = await shell(ahma, "mkdir -p sub && echo written > sub/file.txt && cat sub/file.txt");
  assert.match(text, /written\n\[exit code 0 /);
  assert.equal(await Deno.readTextFile(join(workspace.path, "sub", "file.txt")), "written\n");
});

Deno.test("sandboxed_shell reads and runs the read-only system", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startAhma(["--sandbox-scope", workspace.path]);
  const text = await shell(ahma, "ls /usr/bin | grep -x env");
  assert.match(text, /^env\n\[exit code 0 /);
});
