import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { makeTempWorkspace, type TempWorkspace } from "../harness/temp_workspace.ts";
import { BROKEN_TOOLS, FIXTURE_TOOLS, fixtureArgs } from "../harness/repository.ts";
import { type AhmaSession, resultText, startAhma } from "../harness/ahma_process.ts";
import { isGone } from "../harness/process_state.ts";

/** Starts ahma over stdio on the fixture tools, confined to the workspace. */
async function startOn(workspace: TempWorkspace, extra: string[] = []): Promise<AhmaSession> {
  return await startAhma([
    "--tools-dir",
    FIXTURE_TOOLS,
    "--sandbox-scope",
    workspace.path,
    ...extra,
  ]);
}

/** Calls a fixture tool and returns whether it failed and its text. */
async function call(
  ahma: AhmaSession,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; text: string }> {
  const result = await ahma.client.callTool({ name, arguments: args });
  return { isError: result.isError === true, text: resultText(result) };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

async function waitFor<T>(probe: () => T | undefined, what: string, ms = 15_000): Promise<T> {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Timed out after ${ms} ms waiting for ${what}`);
}

/** Host pids of live processes whose command line contains `marker`. */
function pidsWithMarker(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`);
      if (cmdline.includes(marker) && !isGone(Number(entry.name))) pids.push(Number(entry.name));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** The names of a directory's entries. */
async function entryNames(path: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(path))).map((entry) => entry.name);
}

Deno.test("ahma --mode stdio lists the fixture tools with their schemas", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startOn(workspace);
  const { tools } = await ahma.client.listTools();
  const names = tools.map((tool) => tool.name);
  for (const name of ["echo", "sh_run", "sh_quick", "touch", "sandboxed_shell"]) {
    assert.ok(names.includes(name), `${name} missing from ${names.join(", ")}`);
  }
  const touch = tools.find((tool) => tool.name === "touch");
  assert.deepEqual(touch?.inputSchema.required, ["file"]);
  assert.deepEqual(touch?.annotations, { destructiveHint: false, idempotentHint: true });
});

Deno.test("tools/call over stdio puts every argument type into argv", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startOn(workspace);
  const { isError, text } = await call(ahma, "echo", {
    format: "%s\\n",
    text: "two words",
    count: 3,
    ratio: 1.5,
    flag: true,
    item: ["a", "b c"],
    mode: "fast",
  });
  assert.equal(isError, false);
  assert.match(
    text,
    /^--text\ntwo words\n--count\n3\n--ratio\n1\.5\n--flag\n--item\na\n--item\nb c\n--mode\nfast\n\[exit code 0 after/,
  );
  const off = await call(ahma, "echo", { format: "%s\\n", flag: false, text: "x" });
  assert.match(off.text, /^--text\nx\n\[exit code 0/);
});

Deno.test("tools/call over stdio passes shell metacharacters literally as one argument", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startOn(workspace);
  const value =
    "a; touch semi | touch pipe & touch amp $(touch dollar) `touch tick` > out < in * ' \"\nnext line";
  const { isError, text } = await call(ahma, "echo", { format: "%s\\n", text: value });
  assert.equal(isError, false, text);
  assert.ok(text.startsWith(`--text\n${value}\n[exit code 0`), text);
  assert.deepEqual(await entryNames(workspace.path), []);
});

Deno.test("tools/call over stdio keeps stdout and stderr interleaved in order", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startOn(workspace);
  const { isError, text } = await call(ahma, "sh_run", {
    c: "echo 1; echo 2 >&2; echo 3; echo 4 >&2",
  });
  assert.equal(isError, false);
  assert.match(text, /^1\n2\n3\n4\n\[exit code 0 after/);
});

Deno.test("tools/call over stdio returns a non-zero exit as isError with the output", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startOn(workspace);
  const { isError, text } = await call(ahma, "sh_run", {
    c: "echo to-stdout; echo to-stderr >&2; exit 7",
  });
  assert.equal(isError, true);
  assert.match(text, /^to-stdout\nto-stderr\n\[exit code 7 after/);
});

for (const sandboxed of [true, false]) {
  const how = sandboxed ? "in the sandbox" : "with --no-sandbox";
  Deno.test(`timeout_seconds kills a command and its grandchild ${how}`, async () => {
    await using workspace = await makeTempWorkspace();
    await using ahma = await startOn(workspace, sandboxed ? [] : ["--no-sandbox"]);
    // A unique sleep length marks every process of this call in /proc.
    const marker = `300.${crypto.getRandomValues(new Uint32Array(1))[0]}`;
    const started = performance.now();
    const calling = call(ahma, "sh_run", {
      c: `sleep ${marker} & echo $! > grandchild.pid; echo started; wait`,
      timeout_seconds: 2,
    });
    const sleeper = await waitFor(
      () => pidsWithMarker(marker).find((pid) => /^sleep\0/.test(readCmdline(pid))),
      "the grandchild to start",
    );
    const running = pidsWithMarker(marker);
    const { isError, text } = await calling;
    assert.ok(performance.now() - started < 60_000);
    assert.equal(isError, true);
    assert.match(text, /^started\n\[timed out after \d/);
    const pidInFile = Number(await Deno.readTextFile(join(workspace.path, "grandchild.pid")));
    assert.ok(pidInFile > 0);
    // In the sandbox's own PID namespace the file holds a namespace pid, not a host one.
    if (!sandboxed) assert.equal(pidInFile, sleeper);
    for (const pid of [sleeper, ...running]) assert.ok(isGone(pid), `process ${pid} survived`);
    assert.deepEqual(pidsWithMarker(marker), []);
  });
}

function readCmdline(pid: number): string {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`);
  } catch {
    return "";
  }
}

Deno.test("a tool file's timeout_seconds ends its command (sh_quick: 1 s)", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startOn(workspace);
  const started = performance.now();
  const { isError, text } = await call(ahma, "sh_quick", { c: "echo begun; sleep 60" });
  const elapsed = performance.now() - started;
  assert.equal(isError, true);
  assert.match(text, /^begun\n\[timed out after 1\.\d s/);
  assert.ok(elapsed < 30_000, `took ${elapsed} ms`);
});

Deno.test("tools/call over stdio refuses a path outside the workspace and runs nothing", async () => {
  await using workspace = await makeTempWorkspace();
  await using outside = await makeTempWorkspace();
  await Deno.symlink(outside.path, join(workspace.path, "link"));
  await using ahma = await startOn(workspace);
  const attempts = [
    join(outside.path, "absolute"),
    `../${basename(outside.path)}/relative`,
    "link/through-symlink",
  ];
  for (const file of attempts) {
    const { isError, text } = await call(ahma, "touch", { file: ["inside-first", file] });
    assert.equal(isError, true);
    assert.equal(
      text,
      `Cannot use "file": "${file}" is outside the sandbox scope; pass a path inside it`,
    );
  }
  assert.deepEqual(await entryNames(outside.path), []);
  assert.equal(await exists(join(workspace.path, "inside-first")), false);
  const allowed = await call(ahma, "touch", { file: ["inside-first"] });
  assert.equal(allowed.isError, false, allowed.text);
  assert.equal(await exists(join(workspace.path, "inside-first")), true);
});

Deno.test("ahma --mode stdio skips a broken tool file, loads the rest and logs path:line:col", async () => {
  await using workspace = await makeTempWorkspace();
  const toolsDir = join(workspace.path, "tools");
  await Deno.mkdir(toolsDir);
  for (const name of await entryNames(FIXTURE_TOOLS)) {
    await Deno.copyFile(join(FIXTURE_TOOLS, name), join(toolsDir, name));
  }
  for (const name of ["wrong_type.json", "bad_json_syntax.json"]) {
    await Deno.copyFile(join(BROKEN_TOOLS, name), join(toolsDir, name));
  }
  await using ahma = await startAhma(["--tools-dir", toolsDir, "--sandbox-scope", workspace.path]);
  const names = (await ahma.client.listTools()).tools.map((tool) => tool.name);
  assert.ok(names.includes("echo") && names.includes("touch"));
  assert.ok(!names.some((name) => name.startsWith("wrong") || name.startsWith("bad")));
  const stderr = await waitFor(
    () => ahma.stderr().includes("bad_json_syntax.json:") ? ahma.stderr() : undefined,
    "the log of rejected files",
  );
  assert.ok(stderr.includes(`${join(toolsDir, "wrong_type.json")}:5:3: "/timeout_seconds"`));
  assert.ok(stderr.includes(`${join(toolsDir, "bad_json_syntax.json")}:5:3: invalid JSON`));
  const echoed = await call(ahma, "echo", { format: "%s\\n", text: "still serving" });
  assert.match(echoed.text, /^--text\nstill serving\n/);
});

Deno.test("ahma --mode stdio serves calls from warm sandboxed shells, not one sandbox per call", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startAhma(fixtureArgs(workspace.path));
  const sandboxStarts = new Set<string>();
  for (let i = 0; i < 6; i++) {
    // Field 22 of /proc/1/stat is when the sandbox's pid 1 started: one value per sandbox.
    const result = await ahma.client.callTool({
      name: "sandboxed_shell",
      arguments: { command: "cut -d' ' -f22 /proc/1/stat" },
    });
    sandboxStarts.add(resultText(result).split("\n")[0] ?? "");
  }
  assert.ok(sandboxStarts.size <= 2, `6 calls used ${sandboxStarts.size} sandboxes`);
});
