import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's "./*" export maps "x.js" to a missing "x.js.d.ts"; this names the real types.
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { REPOSITORY_ROOT } from "./repository.ts";

/** The argv that starts ahma the way users do: `deno task ahma ...`. */
export function ahmaCommand(args: string[]): { command: string; args: string[] } {
  return {
    command: Deno.execPath(),
    args: ["task", "--quiet", "--config", `${REPOSITORY_ROOT}deno.json`, "ahma", ...args],
  };
}

/** A running `ahma --mode stdio` with a connected SDK client. */
export interface AhmaSession extends AsyncDisposable {
  client: Client;
  /** Everything ahma wrote to stderr so far. */
  stderr(): string;
  /** The process id of the `deno task` process. */
  pid: number | null;
}

/** Starts `deno task ahma --mode stdio ARGS` and connects the SDK client over stdio. */
export async function startAhma(
  args: string[],
  options: { cwd?: string } = {},
): Promise<AhmaSession> {
  const { command, args: fullArgs } = ahmaCommand(["--mode", "stdio", ...args]);
  const transport = new StdioClientTransport({
    command,
    args: fullArgs,
    stderr: "pipe",
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: { ...Deno.env.toObject(), NO_COLOR: "1" },
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    stderr += new TextDecoder().decode(chunk);
  });
  const client = new Client({ name: "ahma-test", version: "0.0.0" });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    pid: transport.pid,
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
}

/** The text of a tool result's content, joined. */
export function resultText(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((part) => part.text ?? "").join("\n");
}

/** What one run of `ahma ARGS` printed and how it exited. */
export interface AhmaRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `deno task ahma ARGS` once to completion, with no stdin and extra environment. */
export async function runAhmaOnce(
  args: string[],
  env: Record<string, string> = {},
): Promise<AhmaRun> {
  const { command, args: fullArgs } = ahmaCommand(args);
  const output = await new Deno.Command(command, {
    args: fullArgs,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}
