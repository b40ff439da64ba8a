/** Per-call floors the benchmark compares ahma against: what the same work costs without MCP. */

/** Times `fn` `count` times in a row; returns each duration in milliseconds. */
export async function timeSequential(count: number, fn: () => Promise<unknown>): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await fn();
    durations.push(performance.now() - started);
  }
  return durations;
}

/** One `sh -c 'echo hello'` spawned from Deno and read to the end. */
export async function rawSpawn(): Promise<void> {
  await new Deno.Command("sh", {
    args: ["-c", "echo hello"],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  })
    .output();
}

/** One bwrap per call around `sh -c 'echo hello'`, with the given policy arguments. */
export function bwrapPerCall(policy: string[]): () => Promise<void> {
  return async () => {
    await new Deno.Command("bwrap", {
      args: [...policy, "--", "sh", "-c", "echo hello"],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
  };
}

/** A long-lived shell that runs one line at a time and reports when each is done. */
export class WarmShell implements AsyncDisposable {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #reader: ReadableStreamDefaultReader<string>;
  #buffer = "";

  constructor() {
    this.#child = new Deno.Command("sh", { stdin: "piped", stdout: "piped", stderr: "null" })
      .spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#reader = this.#child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** Runs one line in the shell and waits for its end marker. */
  async run(line: string): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(`${line}\necho __done__\n`));
    while (!this.#buffer.includes("__done__\n")) {
      const { value, done } = await this.#reader.read();
      if (done) throw new Error("the warm shell exited");
      this.#buffer += value;
    }
    this.#buffer = this.#buffer.slice(this.#buffer.indexOf("__done__\n") + 9);
  }

  /** Ends the shell. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.#writer.close();
    await this.#reader.cancel();
    await this.#child.status;
  }
}
