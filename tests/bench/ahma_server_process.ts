import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { REPOSITORY_ROOT } from "../harness/repository.ts";

/** ahma started directly with the task's permission set, so its pid is the server's own. */
export interface BenchServer extends AsyncDisposable {
  client: Client;
  pid: number;
  /** Milliseconds from spawn to a connected client. */
  connectMs: number;
}

/** Starts `ahma --mode stdio ARGS` as `deno run --permission-set=ahma main.ts` in `cwd`. */
export async function startBenchServer(args: string[], cwd: string): Promise<BenchServer> {
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [
      "run",
      "--quiet",
      `--config=${REPOSITORY_ROOT}deno.json`,
      "--permission-set=ahma",
      "--no-prompt",
      `${REPOSITORY_ROOT}main.ts`,
      "--mode",
      "stdio",
      "--log-level",
      "warn",
      ...args,
    ],
    cwd,
    stderr: "inherit",
  });
  const client = new Client({ name: "ahma-bench", version: "0.0.0" });
  await client.connect(transport);
  const connectMs = performance.now() - started;
  return {
    client,
    pid: transport.pid ?? 0,
    connectMs,
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
}

/** A field of /proc/PID/status in megabytes (VmRSS, VmHWM). */
export function memoryMegabytes(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kilobytes = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return kilobytes / 1024;
}
