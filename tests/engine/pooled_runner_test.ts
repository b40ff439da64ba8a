import assert from "node:assert/strict";
import {
  BubblewrapSandbox,
  PooledRunner,
  type RunOptions,
  type Sandbox,
  SandboxScope,
  ShellPool,
  UnconfinedSandbox,
} from "../../src/engine/mod.ts";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";
import {
  eventually,
  isGone,
  pidsWithCommandLine,
  uniqueSleepSeconds,
} from "../harness/process_table.ts";

/** Each test runs under the real bubblewrap sandbox and unconfined (`--no-sandbox`). */
const SANDBOXES: Record<string, (root: string) => Promise<Sandbox>> = {
  bubblewrap: async (root) => new BubblewrapSandbox(await SandboxScope.create([root])),
  unconfined: () => Promise.resolve(new UnconfinedSandbox()),
};

/** What a test body gets: a runner over a fresh pool, its sandbox, and the workspace. */
interface Setup {
  runner: PooledRunner;
  pool: ShellPool;
  sandbox: Sandbox;
  root: string;
  kind: string;
}

function poolTest(name: string, body: (setup: Setup) => Promise<void>): void {
  for (const [kind, makeSandbox] of Object.entries(SANDBOXES)) {
    Deno.test(`PooledRunner (${kind}) ${name}`, async () => {
      await using workspace = await makeTempWorkspace();
      await using pool = new ShellPool({ warmShells: 1, maxShells: 4 });
      const sandbox = await makeSandbox(workspace.path);
      const runner = new PooledRunner(pool, sandbox);
      await body({ runner, pool, sandbox, root: workspace.path, kind });
    });
  }
}

function options(cwd: string, more: Partial<RunOptions> = {}): RunOptions {
  return { cwd, timeoutSeconds: 60, ...more };
}

poolTest("keeps cd, export and exit from reaching the next command", async (setup) => {
  const { sandbox, root, kind } = setup;
  // One shell at most, so under bubblewrap the same shell serves every command.
  await using pool = new ShellPool({ warmShells: 1, maxShells: 1 });
  const runner = new PooledRunner(pool, sandbox);
  await pool.warm(sandbox);
  const shells = pool.shellPids(sandbox);
  assert.equal((await runner.run(["cd", "/"], options(root))).exitCode, 0);
  assert.equal((await runner.run(["export", "AHMA_LEAK=1"], options(root))).exitCode, 0);
  const exit = await runner.run(["exit", "3"], options(root));
  assert.equal(exit.exitCode, 3);
  assert.equal(exit.end, "exited");
  const after = await runner.run(["sh", "-c", 'pwd; echo "${AHMA_LEAK-unset}"'], options(root));
  assert.equal(after.output, `${root}\nunset\n`);
  assert.equal(after.exitCode, 0);
  // Under bubblewrap one shell served all four; unconfined shells serve one command each.
  if (kind === "bubblewrap") assert.deepEqual(pool.shellPids(sandbox), shells);
});

poolTest(
  "runs in the call's directory and reports the exact exit code",
  async ({ runner, root }) => {
    await Deno.mkdir(`${root}/sub dir`);
    const result = await runner.run(["sh", "-c", "pwd; exit 201"], options(`${root}/sub dir`));
    assert.deepEqual([result.output, result.exitCode], [`${root}/sub dir\n`, 201]);
  },
);

poolTest("gives a command an empty stdin that ends at once", async ({ runner, root }) => {
  const result = await runner.run(["sh", "-c", "cat; read line; echo done $?"], options(root));
  assert.equal(result.output, "done 1\n");
  assert.ok(result.durationMs < 10_000);
  assert.equal((await runner.run(["echo", "next"], options(root))).output, "next\n");
});

poolTest("merges stderr into stdout in the order written", async ({ runner, root }) => {
  const result = await runner.run(["sh", "-c", "echo 1; echo 2 >&2; echo 3"], options(root));
  assert.equal(result.output, "1\n2\n3\n");
});

poolTest("passes every argument as one word, never interpreted", async ({ runner, root }) => {
  const words = ["it's", '"double"', "$HOME `id` $(id)", "; exit 9 |&", "two\nlines", "", "*"];
  const result = await runner.run(["printf", "[%s]", ...words], options(root));
  assert.equal(result.output, words.map((word) => `[${word}]`).join(""));
  assert.equal(result.exitCode, 0);
});

poolTest("returns output that looks like a frame marker untouched", async ({ runner, root }) => {
  const nonce = "0123456789abcdef0123456789abcdef";
  const text = `${nonce}:end:0\n${nonce}:begin\n:end:\nahma_status\n`;
  const result = await runner.run(["printf", "%s", text], options(root));
  assert.equal(result.output, text);
  const after = await runner.run(["printf", "%s", "x:end:7"], options(root));
  assert.deepEqual([after.output, after.exitCode], ["x:end:7", 0]);
});

poolTest(
  "returns output without a final newline and binary bytes whole",
  async ({ runner, root }) => {
    assert.equal((await runner.run(["printf", "no newline"], options(root))).output, "no newline");
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const format = Array.from(bytes, (byte) => `\\${byte.toString(8).padStart(3, "0")}`).join("");
    const result = await runner.run(["printf", format], options(root));
    assert.equal(result.output, new TextDecoder().decode(bytes));
  },
);

poolTest("returns 10 MB of output whole and streams it as it comes", async ({ runner, root }) => {
  const size = 10 * 1024 * 1024;
  const pieces: string[] = [];
  const result = await runner.run(
    ["sh", "-c", `yes 'line of output é' | head -c ${size}`],
    options(root, { onOutput: (text) => pieces.push(text) }),
  );
  const line = new TextEncoder().encode("line of output é\n");
  const expected = new Uint8Array(size).map((_, i) => line[i % line.length] ?? 0);
  assert.equal(result.output, new TextDecoder().decode(expected));
  assert.ok(pieces.length > 1);
  assert.equal(pieces.join(""), result.output);
});

poolTest("kills what a command left running once it exits", async ({ runner, root, kind }) => {
  const [seconds, daemon] = [uniqueSleepSeconds(), uniqueSleepSeconds()];
  // setsid leaves the process group, which only a PID namespace still holds.
  const escape = kind === "bubblewrap" ? `setsid sleep ${daemon} & ` : "";
  const script = `${escape}sleep ${seconds} & echo started`;
  const result = await runner.run(["sh", "-c", script], options(root));
  assert.equal(result.output, "started\n");
  const left =
    async () => [...await pidsWithCommandLine(seconds), ...await pidsWithCommandLine(daemon)];
  assert.ok(await eventually(async () => (await left()).length === 0, 3000));
});

for (const end of ["timed_out", "cancelled"] as const) {
  poolTest(`kills a child and grandchild when ${end}, then serves the next call`, async (setup) => {
    const { runner, root, kind } = setup;
    const [child, grandchild] = [uniqueSleepSeconds(), uniqueSleepSeconds()];
    const script = `echo begun; sh -c 'sleep ${grandchild}; :' & sleep ${child}; :`;
    const controller = new AbortController();
    const running = runner.run(
      ["sh", "-c", script],
      options(root, {
        timeoutSeconds: end === "timed_out" ? 3 : 60,
        signal: controller.signal,
      }),
    );
    let pids: number[] = [];
    const seen = await eventually(async () => {
      pids = [...await pidsWithCommandLine(child), ...await pidsWithCommandLine(grandchild)];
      return pids.length >= 3;
    }, 2500);
    if (end === "cancelled") controller.abort();
    const result = await running;
    assert.ok(seen, "the command's processes never appeared");
    assert.deepEqual([result.end, result.exitCode, result.output], [end, null, "begun\n"]);
    const allGone = async () => (await Promise.all(pids.map(isGone))).every(Boolean);
    // Under bubblewrap the call returns only once the sandbox's PID namespace is empty; a
    // process group killed outside one dies a moment after the signal.
    const gone = kind === "bubblewrap" ? await allGone() : await eventually(allGone, 3000);
    assert.ok(gone, `still running: ${pids.join(", ")}`);
    assert.equal((await runner.run(["echo", "next"], options(root))).output, "next\n");
  });
}
