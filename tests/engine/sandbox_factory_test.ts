import assert from "node:assert/strict";
import { createSandbox, SandboxUnavailableError } from "../../src/engine/sandbox_factory.ts";
import { SandboxScope } from "../../src/engine/sandbox_scope.ts";
import { ahmaCommand, startAhma } from "../harness/ahma_process.ts";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";

Deno.test("createSandbox() refuses Windows and names --no-sandbox", async () => {
  await using workspace = await makeTempWorkspace();
  const scope = await SandboxScope.create([workspace.path]);
  await assert.rejects(
    createSandbox(scope, { os: "windows" }),
    (error: unknown) =>
      error instanceof SandboxUnavailableError && /--no-sandbox/.test(error.message),
  );
});

Deno.test("createSandbox() proves bubblewrap works on Linux before returning it", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using workspace = await makeTempWorkspace();
  const sandbox = await createSandbox(await SandboxScope.create([workspace.path]));
  assert.equal(sandbox.kind, "bubblewrap");
});

Deno.test("createSandbox() with noSandbox returns the unconfined sandbox", async () => {
  await using workspace = await makeTempWorkspace();
  const scope = await SandboxScope.create([workspace.path]);
  const sandbox = await createSandbox(scope, { noSandbox: true, os: "windows" });
  assert.equal(sandbox.kind, "none");
});

Deno.test("ahma refuses to start without bwrap on PATH and says to apt install bubblewrap", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using workspace = await makeTempWorkspace();
  await using emptyPath = await makeTempWorkspace("ahma_empty_path_");
  const { command, args } = ahmaCommand(["--mode", "stdio", "--sandbox-scope", workspace.path]);
  const { code, stdout, stderr } = await new Deno.Command(command, {
    args,
    env: { PATH: emptyPath.path, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const message = new TextDecoder().decode(stderr);
  assert.equal(code, 1, message);
  assert.match(message, /Cannot start the sandbox: bwrap is not installed/);
  assert.match(message, /apt install bubblewrap/);
  assert.match(message, /--no-sandbox/);
  assert.equal(stdout.length, 0);
});

Deno.test("ahma --no-sandbox starts and says loudly that commands run UNCONFINED", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startAhma(["--sandbox-scope", workspace.path, "--no-sandbox"]);
  const { tools } = await ahma.client.listTools();
  assert.ok(tools.some((tool) => tool.name === "sandboxed_shell"));
  // stderr and stdout are separate pipes: the warning may trail the first responses a little.
  const deadline = Date.now() + 10_000;
  while (!/UNCONFINED/.test(ahma.stderr()) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.match(ahma.stderr(), /WARNING: --no-sandbox: commands run UNCONFINED/);
  assert.match(ahma.client.getInstructions() ?? "", /UNCONFINED/);
});
