import { join } from "node:path";

/** Largest output kept for one operation; beyond it the spooled copy is cut too. */
export const MAX_SPOOLED_CHARACTERS = 32 * 1024 * 1024;

/**
 * Keeps whole outputs too long for a response, one file per operation, in a private temp
 * directory created on first use and removed by `close()`.
 */
export class OutputSpool implements AsyncDisposable {
  #directory: string | undefined;
  readonly #saved = new Set<string>();

  /** Stores an operation's whole output (cut at MAX_SPOOLED_CHARACTERS). */
  async save(id: string, text: string): Promise<void> {
    this.#directory ??= await Deno.makeTempDir({ prefix: "ahma_output_" });
    const kept = text.length > MAX_SPOOLED_CHARACTERS
      ? `${
        text.slice(0, MAX_SPOOLED_CHARACTERS)
      }\n[... output beyond ${MAX_SPOOLED_CHARACTERS} characters not kept ...]`
      : text;
    await Deno.writeTextFile(join(this.#directory, `${id}.txt`), kept);
    this.#saved.add(id);
  }

  /** True when an operation's whole output is stored. */
  has(id: string): boolean {
    return this.#saved.has(id);
  }

  /** The stored output of an operation, or undefined. */
  async read(id: string): Promise<string | undefined> {
    if (!this.#directory || !this.#saved.has(id)) return undefined;
    return await Deno.readTextFile(join(this.#directory, `${id}.txt`));
  }

  /** Forgets an operation's output. */
  async drop(id: string): Promise<void> {
    if (!this.#directory || !this.#saved.delete(id)) return;
    await Deno.remove(join(this.#directory, `${id}.txt`)).catch(() => {});
  }

  /** Removes the directory and everything in it. */
  async close(): Promise<void> {
    if (this.#directory) await Deno.remove(this.#directory, { recursive: true }).catch(() => {});
    this.#directory = undefined;
    this.#saved.clear();
  }

  /** Same as close(). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
