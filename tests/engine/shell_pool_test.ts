import assert from "node:assert/strict";
import {
  BubblewrapSandbox,
  PooledRunner,
  type Sandbox,
  SandboxScope,
  ShellPool,
  type ShellPoolOptions,
  type SpawnPlan,
  UnconfinedSandbox,
} from "../../src/engine/mod.ts";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";
import { eventually, isGone } from "../harness/process_table.ts";

/** Each test runs under the real bubblewrap sandbox and unconfined (`--no-sandbox`). */
const SANDBOXES: Record<string, (root: string) => Promise<Sandbox>> = {
  bubblewrap: async (root) => new BubblewrapSandbox(await SandboxScope.create([root])),
  unconfined: () => Promise.resolve(new UnconfinedSandbox()),
};

/** What a test body gets: a fresh pool, a runner over it, its sandbox, and the workspace. */
interface Setup {
  pool: ShellPool;
  runner: PooledRunner;
  sandbox: Sandbox;
  root: string;
}

function poolTest(
  name: string,
  poolOptions: ShellPoolOptions,
  body: (setup: Setup) => Promise<void>,
  kinds: string[] = Object.keys(SANDBOXES),
): void {
  for (const kind of kinds) {
    Deno.test(`ShellPool (${kind}) ${name}`, async () => {
      await using workspace = await makeTempWorkspace();
      await using pool = new ShellPool(poolOptions);
      const sandbox = await (SANDBOXES[kind] ?? SANDBOXES.unconfined!)(workspace.path);
      await body({ pool, runner: new PooledRunner(pool, sandbox), sandbox, root: workspace.path });
    });
  }
}

const run = { timeoutSeconds: 60 };

poolTest("warm() starts the warm shells before any call", {}, async ({ pool, sandbox }) => {
  await pool.warm(sandbox);
  assert.deepEqual(pool.counts(sandbox), { idle: 2, busy: 0, starting: 0 });
  assert.equal(pool.shellPids(sandbox).length, 2);
});

poolTest("serves 50 concurrent calls, each its own output", {}, async (setup) => {
  const { pool, runner, sandbox, root } = setup;
  let mostBusy = 0;
  const results = await Promise.all(
    Array.from(
      { length: 50 },
      (_, i) =>
        runner.run(["sh", "-c", 'echo "call $1"; sleep 0.05; echo "end $1"', "sh", String(i)], {
          cwd: root,
          ...run,
          onOutput: () => mostBusy = Math.max(mostBusy, pool.counts(sandbox).busy),
        }),
    ),
  );
  results.forEach((result, i) => {
    assert.deepEqual([result.output, result.exitCode], [`call ${i}\nend ${i}\n`, 0]);
  });
  assert.ok(mostBusy > 2 && mostBusy <= 16, `busy shells peaked at ${mostBusy}`);
});

poolTest(
  "replaces a shell killed from outside, and the next call works",
  { warmShells: 1, maxShells: 1 },
  async ({ pool, runner, sandbox, root }) => {
    await pool.warm(sandbox);
    const [killed] = pool.shellPids(sandbox);
    assert.ok(killed !== undefined);
    Deno.kill(killed, "SIGKILL");
    // A call already running in a shell that is killed fails with it; one made after the pool
    // has seen the death gets a new shell.
    const noticed = () => Promise.resolve(!pool.shellPids(sandbox).includes(killed));
    assert.ok(await eventually(noticed, 3000));
    const result = await runner.run(["echo", "still here"], { cwd: root, ...run });
    assert.deepEqual([result.output, result.exitCode], ["still here\n", 0]);
    assert.ok(await isGone(killed));
  },
);

poolTest(
  "makes a call wait for a free shell, and times it out while it waits",
  { warmShells: 0, maxShells: 1 },
  async ({ runner, root }) => {
    const first = runner.run(["sh", "-c", "sleep 2; echo first"], { cwd: root, ...run });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const queued = await runner.run(["echo", "never"], { cwd: root, timeoutSeconds: 0.5 });
    assert.deepEqual([queued.end, queued.exitCode, queued.output], ["timed_out", null, ""]);
    assert.equal((await first).output, "first\n");
    const after = await runner.run(["echo", "after"], { cwd: root, ...run });
    assert.equal(after.output, "after\n");
  },
);

poolTest(
  "reaps shells idle longer than idleSeconds, down to the warm ones",
  { warmShells: 1, idleSeconds: 0.3 },
  async ({ pool, runner, sandbox, root }) => {
    await Promise.all(
      Array.from({ length: 4 }, () => runner.run(["sleep", "0.2"], { cwd: root, ...run })),
    );
    assert.ok(pool.counts(sandbox).idle >= 4);
    assert.ok(await eventually(() => Promise.resolve(pool.counts(sandbox).idle === 1), 5000));
  },
  ["bubblewrap"],
);

poolTest(
  "retires shells started before a .git appeared, so its hooks stay read-only",
  { warmShells: 1 },
  async ({ pool, runner, sandbox, root }) => {
    await pool.warm(sandbox);
    const before = pool.shellPids(sandbox);
    await Deno.mkdir(`${root}/.git/hooks`, { recursive: true });
    const result = await runner.run(["sh", "-c", "echo planted > .git/hooks/pre-commit"], {
      cwd: root,
      ...run,
    });
    assert.notEqual(result.exitCode, 0);
    await assert.rejects(Deno.stat(`${root}/.git/hooks/pre-commit`));
    assert.ok(pool.shellPids(sandbox).every((pid) => !before.includes(pid)));
  },
  ["bubblewrap"],
);

poolTest("close() kills running commands and refuses new calls", {}, async (setup) => {
  const { pool, runner, sandbox, root } = setup;
  const running = runner.run(["sleep", "30"], { cwd: root, ...run });
  assert.ok(await eventually(() => Promise.resolve(pool.counts(sandbox).busy === 1), 5000));
  const shells = pool.shellPids(sandbox);
  await pool.close();
  const result = await running;
  assert.deepEqual([result.end, result.exitCode], ["cancelled", null]);
  assert.ok((await Promise.all(shells.map(isGone))).every(Boolean));
  await assert.rejects(runner.run(["true"], { cwd: root, ...run }), /pool is closed/);
});

/** Real shells that take `seconds` to start, to catch a call or close() waiting on a start. */
class SlowSandbox extends UnconfinedSandbox {
  constructor(readonly seconds: number) {
    super();
  }

  override wrap(argv: string[], cwd: string): SpawnPlan {
    return { command: "sh", args: ["-c", `sleep ${this.seconds}; exec "$@"`, "sh", ...argv], cwd };
  }
}

Deno.test("ShellPool times out a call whose shell is still starting, and close() stops it", async () => {
  await using workspace = await makeTempWorkspace();
  await using pool = new ShellPool({ warmShells: 0 });
  const runner = new PooledRunner(pool, new SlowSandbox(30));
  const started = performance.now();
  const result = await runner.run(["echo", "late"], { cwd: workspace.path, timeoutSeconds: 0.5 });
  assert.deepEqual([result.end, result.exitCode, result.output], ["timed_out", null, ""]);
  assert.equal(pool.counts(runner.sandbox).starting, 1);
  await pool.close();
  assert.ok(performance.now() - started < 10_000);
  assert.deepEqual(pool.counts(runner.sandbox), { idle: 0, busy: 0, starting: 0 });
});

Deno.test("ShellPool refuses options it cannot honour", () => {
  assert.throws(() => new ShellPool({ maxShells: 0 }), RangeError);
  assert.throws(() => new ShellPool({ warmShells: 3, maxShells: 2 }), RangeError);
  assert.throws(() => new ShellPool({ idleSeconds: 0 }), RangeError);
});
