import { type CommandResult, type ToolRunResult } from "../engine/mod.ts";
import { describeEnd } from "../mcp/mod.ts";
import { buildEngine } from "./build_engine.ts";
import type { CliArguments } from "./cli_options.ts";
import type { Logger } from "./logger.ts";

/**
 * `ahma --tool_name NAME [--tool_args JSON] [-- ARGS]`: runs one tool once, prints its output to
 * stdout and returns the command's exit code (1 when it could not run).
 */
export async function runToolCommand(cli: CliArguments, logger: Logger): Promise<number> {
  const args = parseToolArgs(cli.toolArgs);
  if (cli.rest.length > 0) args.args = cli.rest;
  const { engine, pool } = await buildEngine(cli, logger);
  const controller = new AbortController();
  const onInterrupt = () => controller.abort();
  Deno.addSignalListener("SIGINT", onInterrupt);
  try {
    const run = await engine.call(cli.toolName ?? "", args, {
      signal: controller.signal,
      onOutput: (text) => Deno.stdout.writeSync(new TextEncoder().encode(text)),
    });
    return reportEnd(run, logger);
  } finally {
    Deno.removeSignalListener("SIGINT", onInterrupt);
    await pool.close();
  }
}

function parseToolArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new TypeError(
      `Cannot read --tool_args: ${
        error instanceof Error ? error.message : error
      }; pass a JSON object`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError(
      "Cannot read --tool_args: it must be a JSON object such as '{\"short\":true}'",
    );
  }
  return { ...value };
}

/** Logs how each command ended; the exit code is the first failing command's, else 0. */
function reportEnd(run: ToolRunResult, logger: Logger): number {
  const results: CommandResult[] = run.kind === "command"
    ? [run.result]
    : run.steps.map((s) => s.result);
  for (const result of results) logger.info(`${result.argv.join(" ")}: ${describeEnd(result)}`);
  if (run.kind === "sequence" && run.skipped.length > 0) {
    logger.info(`not run: ${run.skipped.join(", ")}`);
  }
  const failed = results.find((result) => result.end !== "exited" || result.exitCode !== 0);
  if (!failed) return 0;
  return failed.exitCode === null || failed.exitCode === 0 ? 1 : failed.exitCode;
}
