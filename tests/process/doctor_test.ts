import assert from "node:assert/strict";
import { resultText, runAhmaOnce, startAhma } from "../harness/ahma_process.ts";
import { FIXTURE_TOOLS, fixtureArgs } from "../harness/repository.ts";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";

Deno.test("ahma doctor passes on a working setup and names each catalog command", async () => {
  await using workspace = await makeTempWorkspace();
  const { code, stdout } = await runAhmaOnce([
    "doctor",
    "--tools-dir",
    FIXTURE_TOOLS,
    "--sandbox-scope",
    workspace.path,
  ]);
  assert.equal(code, 0, stdout);
  assert.match(stdout, /^ok +sandbox: bubblewrap: a probe command ran confined/m);
  assert.match(stdout, /^ok +scope: /m);
  assert.match(stdout, /All checks passed\./);
});

Deno.test("ahma doctor reports a missing bwrap and a bad tool file, each with its fix, and exits 1", async () => {
  await using workspace = await makeTempWorkspace();
  await using tools = await makeTempWorkspace();
  await Deno.copyFile(`${FIXTURE_TOOLS}/echo.json`, `${tools.path}/echo.json`);
  await Deno.writeTextFile(`${tools.path}/bad.json`, '{\n  "description": "no command"\n}\n');
  const emptyPath = `${workspace.path}/empty-bin`;
  await Deno.mkdir(emptyPath);
  const { code, stdout } = await runAhmaOnce(
    ["doctor", "--tools-dir", tools.path, "--sandbox-scope", workspace.path],
    { PATH: emptyPath },
  );
  assert.equal(code, 1, stdout);
  assert.match(stdout, /^PROBLEM sandbox: Cannot start the sandbox: bwrap is not installed/m);
  assert.match(stdout, /fix: apt install bubblewrap/);
  assert.match(stdout, /^PROBLEM tool file: .*bad\.json:1:1: /m);
  assert.match(stdout, /1 of 2 files .* valid/);
});

Deno.test("the doctor tool answers over MCP", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startAhma(fixtureArgs(workspace.path));
  const result = await ahma.client.callTool({ name: "doctor", arguments: {} });
  assert.equal(result.isError, false);
  assert.match(resultText(result), /sandbox: bubblewrap/);
});

Deno.test("a tool whose command is not installed is left out of tools/list and logged", async () => {
  await using workspace = await makeTempWorkspace();
  await using tools = await makeTempWorkspace();
  await Deno.copyFile(`${FIXTURE_TOOLS}/echo.json`, `${tools.path}/echo.json`);
  await Deno.writeTextFile(
    `${tools.path}/missing.json`,
    JSON.stringify({
      name: "nothere",
      description: "A tool whose command does not exist",
      command: "ahma-no-such-command",
      install_instructions: "apt install nothere",
    }),
  );
  await using ahma = await startAhma([
    "--tools-dir",
    tools.path,
    "--sandbox-scope",
    workspace.path,
  ]);
  const names = (await ahma.client.listTools()).tools.map((tool) => tool.name);
  assert.ok(names.includes("echo"));
  assert.ok(!names.includes("nothere"));
  assert.match(
    ahma.stderr(),
    /tool "nothere" left out: "ahma-no-such-command" is not installed; apt install nothere/,
  );
});
