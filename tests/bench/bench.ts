/**
 * The end-to-end benchmark: ahma over stdio with the SDK client, against the floors of the same
 * work, in one run. Prints a table and writes tests/bench/results/bench.json.
 *
 *   deno task bench [--calls N]
 */
import { parseArgs } from "node:util";
import { bubblewrapPolicy, SandboxScope } from "../../src/engine/mod.ts";
import { REPOSITORY_ROOT } from "../harness/repository.ts";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";
import { memoryMegabytes, startBenchServer } from "./ahma_server_process.ts";
import { bwrapPerCall, rawSpawn, timeSequential, WarmShell } from "./floors.ts";
import { measureHttp } from "./http_rows.ts";
import { summarize, type Summary, throughput } from "./statistics.ts";

const { values } = parseArgs({ options: { calls: { type: "string", default: "500" } } });
const CALLS = Number(values.calls);
const CONCURRENT_CALLS = CALLS * 2;

interface Row {
  name: string;
  summary: Summary;
  /** Calls per second at concurrency 8, where measured. */
  perSecond?: number;
}

const BIN_ECHO_TOOL = {
  name: "binecho",
  description: "Runs /bin/echo, for the benchmark",
  command: "/bin/echo",
  subcommand: [{ name: "default", positional_args: [{ name: "text", type: "string" }] }],
};

await using workspace = await makeTempWorkspace("ahma_bench_");
const toolsDirectory = `${workspace.path}/.tools`;
await Deno.mkdir(toolsDirectory);
for await (const entry of Deno.readDir(`${REPOSITORY_ROOT}tools`)) {
  await Deno.copyFile(`${REPOSITORY_ROOT}tools/${entry.name}`, `${toolsDirectory}/${entry.name}`);
}
await Deno.writeTextFile(`${toolsDirectory}/binecho.json`, JSON.stringify(BIN_ECHO_TOOL));

const coldStarts: number[] = [];
for (let i = 0; i < 5; i++) {
  const started = performance.now();
  await using server = await startBenchServer([], workspace.path);
  await server.client.listTools();
  coldStarts.push(performance.now() - started);
}

const rows: Row[] = [];
await using server = await startBenchServer(["--tools-dir", toolsDirectory], workspace.path);
const idleRssMb = memoryMegabytes(server.pid, "VmRSS");
const call = (name: string, args: Record<string, unknown>) => () =>
  server.client.callTool({ name, arguments: args });
const measured = async (name: string, fn: () => Promise<unknown>, concurrent = false) => {
  await timeSequential(20, fn);
  const summary = summarize(await timeSequential(CALLS, fn));
  const row: Row = { name, summary };
  if (concurrent) row.perSecond = await throughput(CONCURRENT_CALLS, 8, fn);
  rows.push(row);
};

await measured(
  "ahma sandboxed_shell `echo hello`",
  call("sandboxed_shell", { command: "echo hello" }),
  true,
);
await measured("ahma MTDF `/bin/echo hello`", call("binecho", { text: "hello" }), true);
await measured(
  "floor: MCP round trip, no subprocess (status)",
  call("status", { operation_id: "op_0" }),
);
await measured("floor: Deno.Command `sh -c 'echo hello'`", rawSpawn);
const scope = await SandboxScope.create([workspace.path]);
await measured("floor: bwrap per call", bwrapPerCall(bubblewrapPolicy(scope.roots)));
{
  await using shell = new WarmShell();
  await measured("floor: builtin `echo` in a warm shell", () => shell.run("echo hello"));
  await measured("floor: `/bin/echo` in a warm shell", () => shell.run("/bin/echo hello"));
}
const peakRssMb = memoryMegabytes(server.pid, "VmHWM");
const http = await measureHttp(workspace.path, Math.min(CALLS, 200));
rows.push({ name: "ahma over HTTP: sandboxed_shell `echo hello`", summary: http.call });

const p50 = (name: string) => rows.find((row) => row.name.startsWith(name))?.summary.p50 ?? NaN;
const mcpFloor = p50("floor: MCP");
const ratios = {
  sandboxedShellToFloor: p50("ahma sandboxed_shell") / (mcpFloor + p50("floor: builtin")),
  mtdfToFloor: p50("ahma MTDF") / (mcpFloor + p50("floor: `/bin/echo`")),
  sandboxedShellToRawSpawn: p50("ahma sandboxed_shell") / p50("floor: Deno.Command"),
  mtdfToRawSpawn: p50("ahma MTDF") / p50("floor: Deno.Command"),
};
const coldStartMs = summarize(coldStarts).p50;

const format = (ms: number) => ms.toFixed(2).padStart(8);
const lines = [
  `| ${"measure".padEnd(48)} |      p50 |      p95 |      p99 | calls/s (8) |`,
  `| ${"-".repeat(48)} | -------: | -------: | -------: | ----------: |`,
  ...rows.map((row) =>
    `| ${row.name.padEnd(48)} | ${format(row.summary.p50)} | ${format(row.summary.p95)} | ${
      format(row.summary.p99)
    } | ${(row.perSecond ? row.perSecond.toFixed(0) : "").padStart(11)} |`
  ),
  "",
  `cold start to tools/list (bundled catalog), p50 of 5: ${coldStartMs.toFixed(1)} ms`,
  `time to a usable isolated HTTP session (connect, child start, first call), p50 of 5: ${
    http.isolatedSessionMs.toFixed(1)
  } ms`,
  `server RSS: idle ${idleRssMb.toFixed(1)} MB, peak ${peakRssMb.toFixed(1)} MB`,
  `sandboxed_shell p50 / (MCP floor + warm builtin floor): ${
    ratios.sandboxedShellToFloor.toFixed(2)
  }`,
  `MTDF /bin/echo p50 / (MCP floor + warm /bin/echo floor): ${ratios.mtdfToFloor.toFixed(2)}`,
  `sandboxed_shell p50 / raw spawn p50: ${ratios.sandboxedShellToRawSpawn.toFixed(2)}`,
  `MTDF /bin/echo p50 / raw spawn p50: ${ratios.mtdfToRawSpawn.toFixed(2)}`,
  `machine: ${Deno.build.os}-${Deno.build.arch}, ${navigator.hardwareConcurrency} cores, Deno ${Deno.version.deno}; ${CALLS} calls per row (times in ms)`,
];
await Deno.stdout.write(new TextEncoder().encode(`${lines.join("\n")}\n`));
await Deno.mkdir(`${REPOSITORY_ROOT}tests/bench/results`, { recursive: true });
await Deno.writeTextFile(
  `${REPOSITORY_ROOT}tests/bench/results/bench.json`,
  JSON.stringify({ calls: CALLS, rows, coldStartMs, idleRssMb, peakRssMb, ratios, http }, null, 2),
);
