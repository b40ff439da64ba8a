/** A JSON-RPC message as read from ahma's stdout. */
export type Message = {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
  result?: unknown;
  error?: unknown;
};

/** Reads newline-delimited lines from a byte stream, keeping every line seen. */
export class LineReader {
  readonly lines: string[] = [];
  readonly #reader: ReadableStreamDefaultReader<string>;
  #pending = "";

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** Reads until a line parses to a message with this id; returns that message. */
  async response(id: number): Promise<Message> {
    return await this.until((message) => message.id === id, `the response to ${id}`);
  }

  /** Reads until a line parses to a message `wanted` accepts; returns that message. */
  async until(wanted: (message: Message) => boolean, what = "the message"): Promise<Message> {
    while (true) {
      const message = this.lines.map(parseMessage).find((m) => m !== undefined && wanted(m));
      if (message) return message;
      const { done, value } = await this.#reader.read();
      if (done) throw new Error(`stdout ended before ${what}`);
      this.#pending += value;
      const parts = this.#pending.split("\n");
      this.#pending = parts.pop() ?? "";
      this.lines.push(...parts);
    }
  }

  /** Stops reading. */
  async cancel(): Promise<void> {
    await this.#reader.cancel();
  }

  /** Reads to the end of the stream. */
  async rest(): Promise<void> {
    while (true) {
      const { done, value } = await this.#reader.read();
      if (done) break;
      this.#pending += value;
    }
    if (this.#pending !== "") this.lines.push(this.#pending);
  }
}

export function parseMessage(line: string): Message | undefined {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
