// @ts-types="@modelcontextprotocol/sdk/types"
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** How to start a child MCP server that speaks JSON-RPC lines on stdin/stdout. */
export interface ChildCommand {
  command: string;
  args: string[];
  /** Default: the parent's working directory. */
  cwd?: string;
}

/** What a {@linkcode StdioChild} reports. */
export interface StdioChildHandlers {
  /** Each message the child writes, in order. */
  onMessage(message: JSONRPCMessage): void;
  /** Each line the child writes to stderr (its log). */
  onStderr?(line: string): void;
  /** A stdout line that is not a JSON-RPC message. */
  onInvalid?(line: string): void;
}

/** Longest wait for output still in the pipe after the child has exited. */
const DRAIN_AFTER_EXIT_MS = 200;

/**
 * A child process serving MCP over stdio: messages out as JSON lines on its stdin, messages in
 * from its stdout, its stderr passed on line by line. `exited` settles soon after it dies.
 */
export class StdioChild {
  readonly pid: number;
  /** Settles as soon as the child has exited. */
  readonly status: Promise<Deno.CommandStatus>;
  /** Settles once the child has exited and its output has been read. */
  readonly exited: Promise<Deno.CommandStatus>;
  readonly #process: Deno.ChildProcess;
  readonly #stdin: WritableStreamDefaultWriter<Uint8Array>;
  readonly #encoder = new TextEncoder();

  constructor(command: ChildCommand, handlers: StdioChildHandlers) {
    this.#process = new Deno.Command(command.command, {
      args: command.args,
      ...(command.cwd ? { cwd: command.cwd } : {}),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.pid = this.#process.pid;
    this.#stdin = this.#process.stdin.getWriter();
    const stdout = readLines(this.#process.stdout, (line) => {
      const parsed = JSONRPCMessageSchema.safeParse(parseJson(line));
      if (parsed.success) handlers.onMessage(parsed.data);
      else if (line.trim() !== "") handlers.onInvalid?.(line);
    });
    const stderr = readLines(this.#process.stderr, (line) => handlers.onStderr?.(line));
    this.status = this.#process.status;
    this.exited = this.status.then(async (status) => {
      // A grandchild may still hold the pipes; output is waited for briefly, then dropped.
      await settleWithin(Promise.all([stdout.done, stderr.done]), DRAIN_AFTER_EXIT_MS);
      await Promise.all([stdout.cancel(), stderr.cancel()]);
      await this.#stdin.close().catch(() => {});
      return status;
    });
  }

  /** Writes one message; rejects when the child is gone. */
  async send(message: JSONRPCMessage): Promise<void> {
    await this.#stdin.write(this.#encoder.encode(`${JSON.stringify(message)}\n`));
  }

  /** Closes its stdin (ahma ends its session and exits); kills it after `graceMs`. */
  async stop(graceMs = 1_000): Promise<Deno.CommandStatus> {
    await this.#stdin.close().catch(() => {});
    const timer = setTimeout(() => this.kill(), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Kills it at once. */
  kill(): void {
    try {
      this.#process.kill("SIGKILL");
    } catch {
      // Already exited.
    }
  }
}

function readLines(
  stream: ReadableStream<Uint8Array>,
  onLine: (line: string) => void,
): { done: Promise<void>; cancel(): Promise<void> } {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  const done = (async () => {
    let buffer = "";
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      let newline: number;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        onLine(buffer.slice(0, newline).replace(/\r$/, ""));
        buffer = buffer.slice(newline + 1);
      }
    }
    if (buffer !== "") onLine(buffer);
  })().catch(() => {});
  return {
    done,
    cancel: async () => {
      await reader.cancel().catch(() => {});
      await done;
    },
  };
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise, new Promise((resolve) => timer = setTimeout(resolve, ms))]);
  clearTimeout(timer);
}
