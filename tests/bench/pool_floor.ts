/**
 * The per-command cost of the warm shell pool against one bwrap per command (SpawnRunner, the
 * floor it replaces): p50 and p95 of `echo hello` (a shell builtin) and `/bin/echo hello` over
 * sequential calls, both under the real bubblewrap sandbox, without MCP.
 *
 *   deno run -A tests/bench/pool_floor.ts [--calls N]
 */
import { parseArgs } from "node:util";
import {
  BubblewrapSandbox,
  type CommandRunner,
  PooledRunner,
  SandboxScope,
  ShellPool,
  SpawnRunner,
} from "../../src/engine/mod.ts";
import { timeSequential } from "./floors.ts";
import { summarize } from "./statistics.ts";

const WARMUP_CALLS = 20;

/** Times `calls` sequential runs of `argv`, after a warm-up, failing on a wrong answer. */
async function measure(runner: CommandRunner, argv: string[], cwd: string, calls: number) {
  const once = async () => {
    const result = await runner.run(argv, { cwd, timeoutSeconds: 60 });
    if (result.output !== "hello\n") throw new Error(`Cannot measure: ${argv.join(" ")} failed`);
  };
  for (let i = 0; i < WARMUP_CALLS; i++) await once();
  return summarize(await timeSequential(calls, once));
}

const { values } = parseArgs({ args: Deno.args, options: { calls: { type: "string" } } });
const calls = Number(values.calls ?? 500);
const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "ahma_bench_" }));
try {
  const sandbox = new BubblewrapSandbox(await SandboxScope.create([workspace]));
  await using pool = new ShellPool();
  await pool.warm(sandbox);
  const runners: [string, CommandRunner][] = [
    ["PooledRunner", new PooledRunner(pool, sandbox)],
    ["SpawnRunner", new SpawnRunner(sandbox)],
  ];
  const rows = [];
  for (const argv of [["echo", "hello"], ["/bin/echo", "hello"]]) {
    for (const [name, runner] of runners) {
      const { p50, p95 } = await measure(runner, argv, workspace, calls);
      rows.push({ command: argv.join(" "), runner: name, p50_ms: p50, p95_ms: p95 });
    }
  }
  const format = (ms: number) => ms.toFixed(2).padStart(7);
  const lines = rows.map((row) =>
    `${row.command.padEnd(16)} ${row.runner.padEnd(13)} ${format(row.p50_ms)} ${format(row.p95_ms)}`
  );
  const header = `${"command".padEnd(16)} ${"runner".padEnd(13)} ${"p50 ms".padStart(7)} ${
    "p95 ms".padStart(7)
  }`;
  await Deno.stdout.write(
    new TextEncoder().encode([`${calls} sequential calls each`, header, ...lines, ""].join("\n")),
  );
} finally {
  await Deno.remove(workspace, { recursive: true });
}
