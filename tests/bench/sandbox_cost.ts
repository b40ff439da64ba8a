/**
 * The per-call cost of the sandbox: p50 of `sandboxed_shell` `echo hi` over sequential MCP
 * calls, with bubblewrap and with `--no-sandbox`, each against its own ahma.
 *
 *   deno run -A tests/bench/sandbox_cost.ts [--calls N]
 */
import { parseArgs } from "node:util";
import { startBenchServer } from "./ahma_server_process.ts";
import { summarize, type Summary } from "./statistics.ts";

const WARMUP_CALLS = 10;

/** Times `calls` sequential `echo hi` calls against an ahma started with `flags`. */
async function measure(flags: string[], calls: number): Promise<Summary> {
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "ahma_bench_" }));
  try {
    await using server = await startBenchServer(
      ["--sandbox-scope", workspace, ...flags],
      workspace,
    );
    const call = () =>
      server.client.callTool({ name: "sandboxed_shell", arguments: { command: "echo hi" } });
    for (let i = 0; i < WARMUP_CALLS; i++) await call();
    const durations: number[] = [];
    for (let i = 0; i < calls; i++) {
      const started = performance.now();
      const result = await call();
      durations.push(performance.now() - started);
      if (result.isError) throw new Error(`Cannot measure: echo hi failed with ${flags.join(" ")}`);
    }
    return summarize(durations);
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
}

const { values } = parseArgs({ args: Deno.args, options: { calls: { type: "string" } } });
const calls = Number(values.calls ?? 200);
const sandboxed = await measure([], calls);
const unconfined = await measure(["--no-sandbox"], calls);
const format = (summary: Summary) =>
  `p50 ${summary.p50.toFixed(1)} ms, p95 ${summary.p95.toFixed(1)} ms`;
const report = [
  `sandboxed_shell "echo hi", ${calls} sequential calls each`,
  `  bubblewrap:   ${format(sandboxed)}`,
  `  --no-sandbox: ${format(unconfined)}`,
  `  sandbox cost at p50: ${(sandboxed.p50 - unconfined.p50).toFixed(1)} ms per call`,
];
await Deno.stdout.write(new TextEncoder().encode(`${report.join("\n")}\n`));
