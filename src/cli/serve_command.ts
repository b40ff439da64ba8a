import { createAhmaSession } from "../mcp/mod.ts";
import { serveStdio } from "../transport/mod.ts";
import { buildEngine } from "./build_engine.ts";
import { diagnose } from "./doctor_command.ts";
import type { CliArguments } from "./cli_options.ts";
import type { Logger } from "./logger.ts";
import { AHMA_VERSION } from "./version.ts";

/** `ahma --mode stdio`: serves MCP until stdin closes. Refuses a terminal on stdin. */
export async function serveCommand(cli: CliArguments, logger: Logger): Promise<number> {
  if (Deno.stdin.isTerminal()) {
    logger.error(
      `Cannot serve MCP on a terminal: stdin must be an MCP client's pipe. Add ahma to your client's mcp.json, or try a tool once with: ahma --tool_name sandboxed_shell --tool_args '{"command":"ls"}'`,
    );
    return 2;
  }
  const { engine, pool, warnings } = await buildEngine(cli, logger);
  const session = createAhmaSession(engine, {
    serverInfo: { name: "ahma", version: AHMA_VERSION },
    instructions: [...warnings, SERVER_INSTRUCTIONS].join("\n\n"),
    asyncByDefault: cli.asyncByDefault,
    doctor: () => diagnose(cli),
  });
  try {
    await serveStdio(session.server, {
      onError: (error) => logger.warn(`protocol: ${error.message}`),
    });
  } finally {
    await session.close();
    await pool.close();
  }
  return 0;
}

/** What every Ahama session tells its client about itself. */
export const SERVER_INSTRUCTIONS =
  "Ahama runs command-line tools in the workspace, confined by a sandbox: only the workspace is writable and the home directory is hidden. Prefer its tools to a raw terminal; paths must lie inside the workspace. Every tool also takes working_directory, timeout_seconds and execution_mode (async returns an operation_id at once; the result comes as a notification, at the start of your next Ahama tool response, and from await).";
