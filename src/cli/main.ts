import { type CliArguments, parseCliArguments, usageText } from "./cli_options.ts";
import { doctorCommand } from "./doctor_command.ts";
import { httpServeCommand } from "./http_serve_command.ts";
import { listToolsCommand } from "./list_tools_command.ts";
import { createLogger, type Logger } from "./logger.ts";
import { runToolCommand } from "./run_tool_command.ts";
import { schemaCommand } from "./schema_command.ts";
import { serveCommand } from "./serve_command.ts";
import { validateCommand } from "./validate_command.ts";
import { AHMA_VERSION } from "./version.ts";

/** Runs ahma with command-line arguments and returns the process exit code. */
export async function runCli(args: string[]): Promise<number> {
  let cli: CliArguments;
  try {
    cli = parseCliArguments(args);
  } catch (error) {
    writeError(`${error instanceof Error ? error.message : error}\n\n${usageText()}`);
    return 2;
  }
  const logger = createLogger({
    level: cli.logLevel,
    ...(cli.logFile ? { file: cli.logFile } : {}),
  });
  try {
    return await dispatch(cli, logger);
  } catch (error) {
    // Every refusal ahma makes is an Error whose message says what to do; the stack is for bugs.
    logger.error(error instanceof Error ? error.message : String(error));
    if (error instanceof Error && error.stack) logger.debug(error.stack);
    return 1;
  }
}

async function dispatch(cli: CliArguments, logger: Logger): Promise<number> {
  switch (cli.command) {
    case "help":
      await Deno.stdout.write(new TextEncoder().encode(usageText()));
      return 0;
    case "version":
      await Deno.stdout.write(new TextEncoder().encode(`ahma ${AHMA_VERSION}\n`));
      return 0;
    case "usage":
      writeError(
        `Say what to do: serve with --mode stdio, or run one tool with --tool_name.\n\n${usageText()}`,
      );
      return 2;
    case "serve":
      return cli.mode === "http"
        ? await httpServeCommand(cli, logger)
        : await serveCommand(cli, logger);
    case "run-tool":
      return await runToolCommand(cli, logger);
    case "validate":
      return await validateCommand(cli, logger);
    case "schema":
      return await schemaCommand(cli, logger);
    case "doctor":
      return await doctorCommand(cli);
    case "list-tools":
      return await listToolsCommand(cli);
  }
}

function writeError(text: string): void {
  Deno.stderr.writeSync(new TextEncoder().encode(text.endsWith("\n") ? text : `${text}\n`));
}
