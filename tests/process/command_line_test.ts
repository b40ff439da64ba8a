import assert from "node:assert/strict";
import { join } from "node:path";
import { CLI_OPTIONS } from "../../src/cli/mod.ts";
import { ahmaCommand } from "../harness/ahma_process.ts";
import { BROKEN_TOOLS, FIXTURE_TOOLS, REPOSITORY_ROOT } from "../harness/repository.ts";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";

/** How one run of `ahma ARGS` ended. */
interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `deno task ahma ARGS` to the end with stdin closed, killing it after a minute. */
async function runAhma(args: string[], cwd: string): Promise<Outcome> {
  const { command, args: fullArgs } = ahmaCommand(args);
  return await runToEnd(command, fullArgs, cwd);
}

async function runToEnd(command: string, args: string[], cwd: string): Promise<Outcome> {
  const controller = new AbortController();
  const killer = setTimeout(() => controller.abort(), 60_000);
  try {
    const output = await new Deno.Command(command, {
      args,
      cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
      signal: controller.signal,
    }).output();
    const decoder = new TextDecoder();
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
    };
  } finally {
    clearTimeout(killer);
  }
}

/** The names of a directory's entries. */
async function entryNames(path: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(path))).map((entry) => entry.name);
}

Deno.test("ahma with neither --mode nor --tool_name exits 2 with the usage", async () => {
  await using workspace = await makeTempWorkspace();
  const { code, stdout, stderr } = await runAhma([], workspace.path);
  assert.equal(code, 2);
  assert.equal(stdout, "");
  assert.match(stderr, /Say what to do: serve with --mode stdio/);
  assert.match(stderr, /Usage:\n/);
});

Deno.test("ahma with an unknown option exits 2 naming it", async () => {
  await using workspace = await makeTempWorkspace();
  const { code, stderr } = await runAhma(["--no-such-option"], workspace.path);
  assert.equal(code, 2);
  assert.match(stderr, /--no-such-option/);
});

Deno.test("ahma --tool_name prints the output and exits with the command's exit code", async () => {
  await using workspace = await makeTempWorkspace();
  const { code, stdout } = await runAhma([
    "--tools-dir",
    FIXTURE_TOOLS,
    "--sandbox-scope",
    workspace.path,
    "--tool_name",
    "sh_run",
    "--tool_args",
    JSON.stringify({ c: "echo out; echo err >&2; exit 3" }),
  ], workspace.path);
  assert.equal(stdout, "out\nerr\n");
  assert.equal(code, 3);
});

Deno.test("ahma --tool_name exits 0 after a command that succeeds", async () => {
  await using workspace = await makeTempWorkspace();
  const { code, stdout } = await runAhma([
    "--tools-dir",
    FIXTURE_TOOLS,
    "--sandbox-scope",
    workspace.path,
    "--tool_name",
    "echo",
    "--tool_args",
    JSON.stringify({ format: "%s\\n", text: "$(x) ; y" }),
  ], workspace.path);
  assert.equal(stdout, "--text\n$(x) ; y\n");
  assert.equal(code, 0);
});

Deno.test("ahma --tool_name refuses a path outside the scope, exits 1 and runs nothing", async () => {
  await using workspace = await makeTempWorkspace();
  await using outside = await makeTempWorkspace();
  const target = join(outside.path, "created");
  const { code, stdout, stderr } = await runAhma([
    "--tools-dir",
    FIXTURE_TOOLS,
    "--sandbox-scope",
    workspace.path,
    "--tool_name",
    "touch",
    "--tool_args",
    JSON.stringify({ file: [target] }),
  ], workspace.path);
  assert.equal(code, 1);
  assert.equal(stdout, "");
  assert.ok(stderr.includes(`"${target}" is outside the sandbox scope`), stderr);
  assert.deepEqual(await entryNames(outside.path), []);
});

Deno.test("ahma validate exits 1 naming each bad file with path:line:col", async () => {
  await using workspace = await makeTempWorkspace();
  const wrongType = join(BROKEN_TOOLS, "wrong_type.json");
  const underscore = join(BROKEN_TOOLS, "underscore_in_subcommand.json");
  const { code, stderr } = await runAhma(
    ["validate", wrongType, underscore, join(FIXTURE_TOOLS, "echo.json")],
    workspace.path,
  );
  assert.equal(code, 1);
  assert.ok(stderr.includes(`${wrongType}:5:3: `), stderr);
  assert.ok(stderr.includes(`${underscore}:7:7: subcommand "log_all" contains "_"`), stderr);
  assert.match(stderr, /1 of 3 tool files valid/);
});

Deno.test("ahma validate exits 1 on the broken_tools directory", async () => {
  await using workspace = await makeTempWorkspace();
  const { code, stderr } = await runAhma(["validate", BROKEN_TOOLS], workspace.path);
  assert.equal(code, 1);
  for (const name of await entryNames(BROKEN_TOOLS)) {
    assert.ok(stderr.includes(`${join(BROKEN_TOOLS, name)}:`), `${name} not named`);
  }
});

Deno.test("ahma validate exits 0 on good tool files", async () => {
  await using workspace = await makeTempWorkspace();
  const { code, stderr } = await runAhma(
    ["validate", FIXTURE_TOOLS, join(REPOSITORY_ROOT, "tools")],
    workspace.path,
  );
  assert.equal(code, 0, stderr);
  assert.doesNotMatch(stderr, /ERROR/);
});

Deno.test("ahma --version prints the version from deno.json", async () => {
  await using workspace = await makeTempWorkspace();
  const config = JSON.parse(await Deno.readTextFile(join(REPOSITORY_ROOT, "deno.json")));
  const { code, stdout } = await runAhma(["--version"], workspace.path);
  assert.equal(code, 0);
  assert.equal(stdout, `ahma ${config.version}\n`);
});

Deno.test("ahma --help prints the usage and every option to stdout", async () => {
  await using workspace = await makeTempWorkspace();
  const { code, stdout, stderr } = await runAhma(["--help"], workspace.path);
  assert.equal(code, 0);
  assert.equal(stderr, "");
  assert.match(stdout, /^ahma: .*\n\nUsage:\n/);
  for (const name of Object.keys(CLI_OPTIONS)) assert.ok(stdout.includes(`--${name}`), name);
});

/** util-linux `script`, which gives a command a pseudo-terminal; the tty case needs it. */
const SCRIPT = "/usr/bin/script";
const HAS_SCRIPT = await Deno.stat(SCRIPT).then(() => true, () => false);

Deno.test({
  name: "ahma --mode stdio refuses a terminal on stdin and says what to do",
  ignore: !HAS_SCRIPT,
  async fn() {
    await using workspace = await makeTempWorkspace();
    const { command, args } = ahmaCommand(["--mode", "stdio", "--sandbox-scope", workspace.path]);
    const line = [command, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
    // `script` runs the line on a new pseudo-terminal and exits with its code (-e).
    const { code, stdout } = await runToEnd(SCRIPT, ["-qec", line, "/dev/null"], workspace.path);
    assert.equal(code, 2);
    assert.match(stdout, /Cannot serve MCP on a terminal/);
  },
});
