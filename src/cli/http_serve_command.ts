import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Engine } from "../engine/mod.ts";
import { type AhmaSessionOptions, createAhmaSession } from "../mcp/mod.ts";
import {
  DEFAULT_HTTP_HOST,
  DEFAULT_HTTP_PORT,
  HTTP_PATHS,
  isLoopbackHost,
  listenHttp,
  McpHttpHandler,
  type ServerIdentity,
  type SessionBackend,
  SessionIsolation,
} from "../transport/mod.ts";
import { buildEngine } from "./build_engine.ts";
import type { CliArguments } from "./cli_options.ts";
import { diagnose } from "./doctor_command.ts";
import type { Logger } from "./logger.ts";
import { SERVER_INSTRUCTIONS } from "./serve_command.ts";
import { sessionChildCommand } from "./session_child_command.ts";
import { AHMA_VERSION } from "./version.ts";

/**
 * `ahma --mode http`: serves MCP over HTTP until SIGINT/SIGTERM, every session over the one
 * engine, or with `--session-isolation` each in its own child process.
 */
export async function httpServeCommand(cli: CliArguments, logger: Logger): Promise<number> {
  const hostname = cli.host ?? DEFAULT_HTTP_HOST;
  const authToken = cli.authToken ?? (Deno.env.get("AHMA_AUTH_TOKEN") || undefined);
  const loopback = isLoopbackHost(hostname);
  if (!loopback && authToken === undefined) {
    logger.error(
      `Cannot listen on "${hostname}" without a token: anyone who reaches it could run commands; pass --auth-token TOKEN (or set AHMA_AUTH_TOKEN), or bind ${DEFAULT_HTTP_HOST}`,
    );
    return 2;
  }
  const { engine, pool, warnings } = await buildEngine(cli, logger);
  const sessionOptions: AhmaSessionOptions = {
    serverInfo: { name: "ahma", version: AHMA_VERSION },
    instructions: [...warnings, SERVER_INSTRUCTIONS].join("\n\n"),
    asyncByDefault: cli.asyncByDefault,
    doctor: () => diagnose(cli),
  };
  let isolation: SessionIsolation | undefined;
  if (cli.sessionIsolation) {
    isolation = new SessionIsolation({
      identity: await serverIdentity(engine, sessionOptions),
      childCommand: await sessionChildCommand(cli),
      logger,
    });
    // Children run every command; this process keeps no warm shells of its own.
    await pool.close();
  }
  const handler = new McpHttpHandler(
    isolation?.open ?? (() => coreSession(engine, sessionOptions)),
    {
      authToken,
      allowAnyHost: !loopback,
      ...(cli.idleTimeoutSeconds ? { idleTimeoutSeconds: cli.idleTimeoutSeconds } : {}),
      countChildren: () => isolation?.children ?? 0,
      logger,
    },
  );
  const listener = listenHttp(handler.fetch, { hostname, port: cli.port ?? DEFAULT_HTTP_PORT });
  const host = listener.hostname.includes(":") ? `[${listener.hostname}]` : listener.hostname;
  logger.info(
    `listening on http://${host}:${listener.port}${HTTP_PATHS.mcp} (legacy SSE ${HTTP_PATHS.sse}, health ${HTTP_PATHS.health}${
      isolation ? "; one child per session" : ""
    }${authToken ? "; bearer token required" : ""})`,
  );
  await stopSignal();
  logger.info("stopping: ending every session");
  await handler.close();
  await listener.shutdown();
  await pool.close();
  return 0;
}

/** A session of the shared core: its own SDK server and operations over the one engine. */
function coreSession(engine: Engine, options: AhmaSessionOptions): SessionBackend {
  const session = createAhmaSession(engine, options);
  return {
    connect: (transport) => session.server.connect(transport),
    async close() {
      await session.close();
      await session.server.close();
    },
  };
}

/**
 * What a session's child will answer to initialize, learnt once from an in-process session, so
 * an isolated session can answer before its child exists (the child needs the client's roots).
 */
async function serverIdentity(
  engine: Engine,
  options: AhmaSessionOptions,
): Promise<ServerIdentity> {
  const session = createAhmaSession(engine, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "ahma-identity", version: AHMA_VERSION });
  try {
    await Promise.all([session.server.connect(serverSide), client.connect(clientSide)]);
    const serverInfo = client.getServerVersion();
    const capabilities = client.getServerCapabilities();
    if (!serverInfo || !capabilities) throw new TypeError("The core did not initialize; a bug");
    return { serverInfo, capabilities, instructions: client.getInstructions() };
  } finally {
    await client.close();
    await session.close();
  }
}

/** Resolves on the first SIGINT or SIGTERM (SIGBREAK on Windows). */
function stopSignal(): Promise<void> {
  const signals: Deno.Signal[] = Deno.build.os === "windows"
    ? ["SIGINT", "SIGBREAK"]
    : ["SIGINT", "SIGTERM"];
  return new Promise((resolve) => {
    const stop = () => {
      for (const signal of signals) Deno.removeSignalListener(signal, stop);
      resolve();
    };
    for (const signal of signals) Deno.addSignalListener(signal, stop);
  });
}
