import { listServerTools, renderToolList, type ServerTarget } from "../client/mod.ts";
import type { CliArguments } from "./cli_options.ts";

/**
 * `ahma list-tools [--http URL | -- COMMAND ARGS...] [--format json]`: prints every tool of any
 * MCP server. Returns 2 when neither target is given.
 */
export async function listToolsCommand(cli: CliArguments): Promise<number> {
  const [command, ...args] = cli.rest;
  const target: ServerTarget | undefined = cli.http
    ? { url: cli.http }
    : command
    ? { command, args }
    : undefined;
  if (!target) {
    throw new TypeError(
      'Cannot list tools: name a server, as in "ahma list-tools --http URL" or "ahma list-tools -- COMMAND ARGS"',
    );
  }
  const tools = await listServerTools(target);
  const text = cli.format === "json" ? JSON.stringify(tools, null, 2) : renderToolList(tools);
  await Deno.stdout.write(new TextEncoder().encode(`${text}\n`));
  return 0;
}
