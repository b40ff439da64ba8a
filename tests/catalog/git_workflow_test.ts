import assert from "node:assert/strict";
import { join } from "node:path";
import { resultText, startAhma } from "../harness/ahma_process.ts";
import { REPOSITORY_ROOT } from "../harness/repository.ts";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";

const BUNDLED_TOOLS = join(REPOSITORY_ROOT, "tools");

/**
 * The sandbox mounts a private, empty `/tmp`, so a Deno installed there (as on the build
 * machines, which unpack it from npm into /tmp) cannot run inside it.
 */
const DENO_HIDDEN_BY_SANDBOX = Deno.execPath().startsWith("/tmp/");

/** Calls a tool and returns its text, failing the test on an error result. */
async function callOk(
  ahma: Awaited<ReturnType<typeof startAhma>>,
  name: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  const result = await ahma.client.callTool({ name, arguments: args });
  const text = resultText(result);
  assert.equal(result.isError, false, `${name} failed:\n${text}`);
  return text;
}

/** Runs git outside the sandbox, as the user would have before starting ahma. */
async function gitConfig(repository: string, key: string, value: string): Promise<void> {
  const { code, stderr } = await new Deno.Command("git", {
    args: ["-C", repository, "config", key, value],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
}

Deno.test("git tools init, stage and commit a file, then status and log show it", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startAhma([
    "--tools-dir",
    BUNDLED_TOOLS,
    "--sandbox-scope",
    workspace.path,
  ]);
  await callOk(ahma, "git_init", { "initial-branch": "main" });
  // The sandbox keeps .git/config read-only, so the identity is set from outside, where a
  // user's ~/.gitconfig would provide it; the test must not depend on this machine's.
  await gitConfig(workspace.path, "user.name", "Ahma Test");
  await gitConfig(workspace.path, "user.email", "ahma-test@example.invalid");
  await Deno.writeTextFile(join(workspace.path, "hello.txt"), "hello\n");

  assert.match(await callOk(ahma, "git_status", { short: true }), /^\?\? hello\.txt$/m);
  await callOk(ahma, "git_add", { pathspec: ["hello.txt"] });
  await callOk(ahma, "git_commit", { message: "Add hello.txt" });

  assert.match(await callOk(ahma, "git_status"), /nothing to commit, working tree clean/);
  const log = await callOk(ahma, "git_log", { oneline: true, "max-count": 5 });
  assert.match(log, /^[0-9a-f]{7,} Add hello\.txt$/m);
  const show = await callOk(ahma, "git_show", { stat: true });
  assert.match(show, /Author: Ahma Test <ahma-test@example\.invalid>/);
  assert.match(show, /hello\.txt \| 1 \+/);
});

Deno.test("git_add refuses a path outside the workspace before running git", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startAhma([
    "--tools-dir",
    BUNDLED_TOOLS,
    "--sandbox-scope",
    workspace.path,
  ]);
  await callOk(ahma, "git_init");
  const result = await ahma.client.callTool({
    name: "git_add",
    arguments: { pathspec: ["../outside.txt"] },
  });
  assert.equal(result.isError, true);
  assert.match(resultText(result), /outside the sandbox scope/);
});

Deno.test({
  name: "deno_fmt checks and formats files inside the sandbox",
  ignore: DENO_HIDDEN_BY_SANDBOX,
  async fn() {
    await using workspace = await makeTempWorkspace();
    await using ahma = await startAhma([
      "--tools-dir",
      BUNDLED_TOOLS,
      "--sandbox-scope",
      workspace.path,
    ]);
    const file = join(workspace.path, "messy.ts");
    await Deno.writeTextFile(file, "const  x = {a:1}\nconsole.log( x )\n");
    const check = await ahma.client.callTool({
      name: "deno_fmt",
      arguments: { check: true, files: ["messy.ts"] },
    });
    assert.equal(check.isError, true);
    assert.match(resultText(check), /Found 1 not formatted file/);
    await callOk(ahma, "deno_fmt", { files: ["messy.ts"] });
    assert.equal(await Deno.readTextFile(file), "const x = { a: 1 };\nconsole.log(x);\n");
  },
});

Deno.test("npm_init writes package.json and npm_run lists its scripts", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startAhma([
    "--tools-dir",
    BUNDLED_TOOLS,
    "--sandbox-scope",
    workspace.path,
  ]);
  await callOk(ahma, "npm_init", { yes: true });
  const manifest: unknown = JSON.parse(
    await Deno.readTextFile(join(workspace.path, "package.json")),
  );
  assert.ok(typeof manifest === "object" && manifest !== null && "scripts" in manifest);
  const scripts = await callOk(ahma, "npm_run", { execution_mode: "sync" });
  assert.match(scripts, /scripts included in .*:\n\s+test\n/);
});
