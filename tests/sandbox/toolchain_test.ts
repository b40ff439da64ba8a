import assert from "node:assert/strict";
import { join } from "node:path";
import { ahmaCommand } from "../harness/ahma_process.ts";
import { readIfPresent } from "../harness/host_probe.ts";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";

/** What `ahma --tool_name sandboxed_shell` printed and how it exited. */
interface ShellRun {
  code: number;
  output: string;
}

/** Runs one command line the way a user tries a tool once: `ahma --tool_name sandboxed_shell`. */
async function runInSandbox(scope: string, command: string): Promise<ShellRun> {
  const { command: program, args } = ahmaCommand([
    "--sandbox-scope",
    scope,
    "--tool_name",
    "sandboxed_shell",
    "--tool_args",
    JSON.stringify({ command, timeout_seconds: 240 }),
  ]);
  const { code, stdout, stderr } = await new Deno.Command(program, {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const decoder = new TextDecoder();
  return { code, output: decoder.decode(stdout) + decoder.decode(stderr) };
}

/** True when the host has this program on PATH; a missing toolchain skips its test. */
async function hostHas(program: string): Promise<boolean> {
  const { success } = await new Deno.Command("sh", {
    args: ["-c", 'command -v "$1"', "sh", program],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output();
  return success;
}

const GIT_IDENTITY = "git -c user.email=test@example.com -c user.name=Test";

Deno.test({
  name: "ahma --tool_name sandboxed_shell runs git init, add and commit in the scope",
  ignore: !(await hostHas("git")),
  async fn() {
    await using workspace = await makeTempWorkspace();
    const init = await runInSandbox(workspace.path, "git init -q . && echo one > a.txt");
    assert.equal(init.code, 0, init.output);
    // A second call: .git now exists, so its hooks and config are guarded while git commits.
    const commit = await runInSandbox(
      workspace.path,
      `git add a.txt && ${GIT_IDENTITY} commit -q -m first && git log --format=%s`,
    );
    assert.equal(commit.code, 0, commit.output);
    assert.match(commit.output, /^first$/m);
  },
});

Deno.test({
  name: "ahma --tool_name sandboxed_shell runs npm install with its cache in the scope",
  ignore: !(await hostHas("npm")),
  async fn() {
    await using workspace = await makeTempWorkspace();
    await Deno.writeTextFile(
      join(workspace.path, "package.json"),
      JSON.stringify({ name: "sandboxed", version: "1.0.0", private: true }),
    );
    const run = await runInSandbox(workspace.path, "npm install --no-audit --no-fund is-number");
    assert.equal(run.code, 0, run.output);
    const installed = await readIfPresent(
      join(workspace.path, "node_modules", "is-number", "package.json"),
    );
    assert.match(installed ?? "", /"name": "is-number"/);
    assert.ok((await Deno.stat(join(workspace.path, ".ahma", "cache", "npm"))).isDirectory);
  },
});

Deno.test("ahma --tool_name sandboxed_shell runs deno test with DENO_DIR in the scope", async () => {
  await using workspace = await makeTempWorkspace();
  await Deno.writeTextFile(
    join(workspace.path, "sum_test.ts"),
    'Deno.test("sum", () => { if (1 + 1 !== 2) throw new Error("wrong"); });\n',
  );
  const deno = await visibleDeno(workspace.path);
  const run = await runInSandbox(workspace.path, `${deno} test --no-prompt sum_test.ts`);
  assert.equal(run.code, 0, run.output);
  assert.match(run.output, /ok \| 1 passed/);
  assert.ok((await Deno.stat(join(workspace.path, ".ahma", "cache", "deno"))).isDirectory);
});

Deno.test({
  name: "ahma --tool_name sandboxed_shell runs cargo build with CARGO_HOME in the scope",
  ignore: !(await hostHas("cargo")),
  async fn() {
    await using workspace = await makeTempWorkspace();
    const run = await runInSandbox(
      workspace.path,
      "cargo new -q --vcs none hello && cd hello && cargo build -q && ./target/debug/hello",
    );
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /Hello, world!/);
    assert.ok((await Deno.stat(join(workspace.path, ".ahma", "cache", "cargo"))).isDirectory);
  },
});

/**
 * The running deno, as a path the sandbox can execute. A deno under /tmp (as installed by
 * `npm install deno` into a temp dir) is hidden by the private /tmp, so it is linked, or
 * failing that copied, into the scope.
 */
async function visibleDeno(scope: string): Promise<string> {
  const probe = await runInSandbox(scope, `test -x ${Deno.execPath()}`);
  if (probe.code === 0) return Deno.execPath();
  const inside = join(scope, "deno");
  await Deno.link(Deno.execPath(), inside).catch(() => Deno.copyFile(Deno.execPath(), inside));
  return inside;
}
