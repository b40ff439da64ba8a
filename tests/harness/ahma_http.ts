import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's "./*" export maps "x.js" to a missing "x.js.d.ts"; these name the real types.
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/client/sse"
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type ClientCapabilities,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { pathToFileURL } from "node:url";
import { ahmaCommand } from "./ahma_process.ts";
import { childrenOf, descendantsOf } from "./process_tree.ts";

/** Longest wait for ahma to say which port it listens on. */
const START_TIMEOUT_MS = 60_000;

/** Options for {@linkcode AhmaHttp.connect}. */
export interface ConnectOptions {
  /** Extra headers on every request (e.g. Authorization). */
  headers?: Record<string, string>;
  /** Directories the client lists as its roots; declares the roots capability. */
  roots?: string[];
  /** Client name, to tell sessions apart in logs. Default: "ahma-http-test". */
  name?: string;
}

/** A running `ahma --mode http` on a free port of 127.0.0.1. */
export interface AhmaHttp extends AsyncDisposable {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** The Streamable HTTP endpoint. */
  mcpUrl: URL;
  /** The `deno task` process; the server is its child. */
  taskPid: number;
  /** The ahma process itself. */
  serverPid: number;
  /** Everything ahma wrote to stderr so far. */
  stderr(): string;
  /** Connects a new SDK client over Streamable HTTP (a new session). */
  connect(
    options?: ConnectOptions,
  ): Promise<{ client: Client; transport: StreamableHTTPClientTransport }>;
  /** Connects a new SDK client over the legacy HTTP+SSE transport. */
  connectLegacy(): Promise<Client>;
  /** Stops ahma with SIGTERM and waits for the task to exit. */
  stop(): Promise<Deno.CommandStatus>;
}

/** Starts `deno task ahma --mode http --port 0 ARGS` and waits until it listens. */
export async function startAhmaHttp(
  args: string[],
  options: { env?: Record<string, string> } = {},
): Promise<AhmaHttp> {
  const { command, args: fullArgs } = ahmaCommand(["--mode", "http", "--port", "0", ...args]);
  const process = new Deno.Command(command, {
    args: fullArgs,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1", ...options.env },
  }).spawn();
  let stderr = "";
  const reading = (async () => {
    for await (const chunk of process.stderr.pipeThrough(new TextDecoderStream())) stderr += chunk;
  })();
  let stopped: Promise<Deno.CommandStatus> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      // `deno task` does not pass SIGTERM on, so it goes to ahma itself.
      for (const pid of childrenOf(process.pid)) signal(pid, "SIGTERM");
      const timer = setTimeout(() => signal(process.pid, "SIGKILL"), 15_000);
      const status = await process.status;
      clearTimeout(timer);
      await reading;
      return status;
    })();
    return stopped;
  };
  const port = await waitForPort(() => stderr, process.status).catch(async (error) => {
    await stop();
    throw error;
  });
  const origin = `http://127.0.0.1:${port}`;
  const mcpUrl = new URL("/mcp", origin);
  const serverPid = childrenOf(process.pid)[0] ?? process.pid;
  return {
    origin,
    mcpUrl,
    taskPid: process.pid,
    serverPid,
    stderr: () => stderr,
    connect: (connectOptions = {}) => connectStreamable(mcpUrl, connectOptions),
    connectLegacy: () => connectLegacy(origin),
    stop,
    async [Symbol.asyncDispose]() {
      await stop();
    },
  };
}

async function connectStreamable(
  url: URL,
  options: ConnectOptions,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const capabilities: ClientCapabilities = options.roots ? { roots: { listChanged: true } } : {};
  const client = new Client({ name: options.name ?? "ahma-http-test", version: "0.0.0" }, {
    capabilities,
  });
  const roots = options.roots;
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: roots.map((path) => ({ uri: pathToFileURL(path).href, name: path })),
    }));
  }
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: options.headers ?? {} },
  });
  await client.connect(transport);
  return { client, transport };
}

async function connectLegacy(origin: string): Promise<Client> {
  const client = new Client({ name: "ahma-legacy-test", version: "0.0.0" });
  await client.connect(new SSEClientTransport(new URL("/sse", origin)));
  return client;
}

async function waitForPort(
  stderr: () => string,
  exited: Promise<Deno.CommandStatus>,
): Promise<number> {
  let done = false;
  void exited.then(() => done = true);
  const deadline = performance.now() + START_TIMEOUT_MS;
  while (performance.now() < deadline) {
    const match = /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(stderr());
    if (match?.[1]) return Number(match[1]);
    if (done) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`ahma did not start listening:\n${stderr()}`);
}

function signal(pid: number, name: Deno.Signal): void {
  try {
    Deno.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/** Every process ahma started (pids below the task's server process). */
export function ahmaDescendants(ahma: AhmaHttp): number[] {
  return descendantsOf(ahma.serverPid);
}
