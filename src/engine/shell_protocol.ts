/**
 * The wire protocol between ahma and one warm shell: the text written to the shell's stdin for
 * each command, and the byte framing that finds the command's output and exit code in its stdout.
 *
 * Each command is framed by a fresh random nonce that the command never sees (it is not in its
 * argv, environment or any variable; only in the shell's own script text):
 *
 *     <nonce>:begin\n  OUTPUT  <nonce>:end:<status>\n
 *
 * OUTPUT is every byte the command wrote, exactly: the end marker follows it with no separator,
 * so output without a final newline, binary output and output that looks like a marker all come
 * back whole. Bytes before the begin marker (late writes of a killed previous command) are dropped.
 */

const NONCE_BYTES = 16;
const NEWLINE = 0x0a;

/** A fresh random nonce: 32 lowercase hex digits from `crypto.getRandomValues`. */
export function makeNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Quotes one word for sh: wrapped in single quotes, each `'` written as `'\''`; never expanded. */
export function quoteWord(word: string): string {
  if (word.includes("\0")) {
    throw new TypeError(`Cannot pass ${JSON.stringify(word)} to a command: it contains a NUL byte`);
  }
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The shell's first input: its own stderr goes nowhere (under bwrap `--info-fd 2` closed it, and
 * every command merges its stderr into stdout anyway).
 */
export const SHELL_PRELUDE = "exec 2>/dev/null\n";

/** One command for a shell: the argv and the directory it runs in. */
export interface ShellCommand {
  argv: readonly string[];
  cwd: string;
}

/** Options for {@linkcode commandScript}. */
export interface CommandScriptOptions {
  /**
   * After the command, SIGKILL every other process in the shell's PID namespace (`kill -1` spares
   * only the caller and pid 1). Only for a shell proven to be pid 2 of a namespace of its own:
   * anywhere else `kill -1` reaches every process of the user. Default: false.
   */
  killNamespace?: boolean;
}

/**
 * The shell text that runs one command in its directory inside a frame. A subshell keeps `cd`, `export`,
 * `exit` and traps from reaching the next command; `</dev/null` gives it an empty stdin so it
 * cannot read the command stream; `2>&1` merges its stderr into stdout in order.
 */
export function commandScript(
  nonce: string,
  command: ShellCommand,
  options: CommandScriptOptions = {},
): string {
  const { killNamespace = false } = options;
  const { argv, cwd } = command;
  const words = isShellScript(argv)
    ? `eval ${quoteWord(argv[2] ?? "")}`
    : argv.length > 0
    ? argv.map(quoteWord).join(" ")
    : ":";
  const cleanup = killNamespace ? `[ "$$" = 2 ] && kill -s KILL -- -1 2>/dev/null; ` : "";
  return `printf '%s:begin\\n' ${nonce}; ( cd -- ${
    quoteWord(cwd)
  } || exit; ${words} ) </dev/null 2>&1; ahma_status=$?; ${cleanup}printf '%s:end:%d\\n' ${nonce} "$ahma_status"
`;
}

/**
 * True for `sh -c SCRIPT` with nothing after: the subshell is already `sh`, so evaluating the
 * script there behaves the same (`exit`, `exec`, `cd` stay in the subshell) and saves starting a
 * second shell, about a millisecond a call.
 */
function isShellScript(argv: readonly string[]): boolean {
  return argv.length === 3 && argv[0] === "sh" && argv[1] === "-c";
}

/** Shell text whose frame's output is `PID INIT`: the shell's pid and pid 1's name, if readable. */
export function probeScript(nonce: string): string {
  return `printf '%s:begin\\n' ${nonce}; ahma_init=; read -r ahma_init </proc/1/comm; printf '%s %s' "$$" "$ahma_init"; printf '%s:end:0\\n' ${nonce}
`;
}

/** What {@linkcode FrameParser.push} found in a chunk. */
export interface FrameProgress {
  /** Output bytes now known to be the command's (a possible marker start is held back). */
  output: Uint8Array;
  /** The exit status, once the end marker and its line have arrived. */
  status?: number;
}

/** Finds one command's output and exit status in a shell's stdout, across any chunking. */
export class FrameParser {
  readonly #begin: Uint8Array;
  readonly #end: Uint8Array;
  #state: "seeking" | "output" | "status" | "done" = "seeking";
  #pending: Uint8Array = new Uint8Array(0);

  constructor(nonce: string) {
    const encoder = new TextEncoder();
    this.#begin = encoder.encode(`${nonce}:begin\n`);
    this.#end = encoder.encode(`${nonce}:end:`);
  }

  /** True once the begin marker has arrived, so the command has started. */
  get begun(): boolean {
    return this.#state !== "seeking";
  }

  /** True once the end marker and exit status have arrived. */
  get done(): boolean {
    return this.#state === "done";
  }

  /** Consumes the next chunk of stdout; bytes after the frame's end are dropped. */
  push(chunk: Uint8Array): FrameProgress {
    let data = this.#pending.length > 0 ? concatBytes([this.#pending, chunk]) : chunk;
    this.#pending = new Uint8Array(0);
    let output: Uint8Array = new Uint8Array(0);
    if (this.#state === "seeking") {
      const at = indexOfBytes(data, this.#begin);
      if (at < 0) {
        this.#hold(data, this.#begin);
        return { output };
      }
      data = data.subarray(at + this.#begin.length);
      this.#state = "output";
    }
    if (this.#state === "output") {
      const at = indexOfBytes(data, this.#end);
      if (at < 0) {
        const held = this.#hold(data, this.#end);
        return { output: data.subarray(0, data.length - held) };
      }
      output = data.subarray(0, at);
      data = data.subarray(at + this.#end.length);
      this.#state = "status";
    }
    if (this.#state === "status") {
      const newline = data.indexOf(NEWLINE);
      if (newline < 0) {
        this.#pending = data.slice();
        return { output };
      }
      this.#state = "done";
      return { output, status: Number(new TextDecoder().decode(data.subarray(0, newline))) };
    }
    return { output };
  }

  /** Keeps the end of `data` that may be the start of `marker`; returns how many bytes. */
  #hold(data: Uint8Array, marker: Uint8Array): number {
    for (let length = Math.min(marker.length - 1, data.length); length > 0; length--) {
      if (startsWith(marker, data.subarray(data.length - length))) {
        this.#pending = data.slice(data.length - length);
        return length;
      }
    }
    return 0;
  }
}

/** Joins byte chunks into one array. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  return joined;
}

function indexOfBytes(data: Uint8Array, marker: Uint8Array): number {
  const [first] = marker;
  for (let at = data.indexOf(first ?? 0); at >= 0; at = data.indexOf(first ?? 0, at + 1)) {
    if (at + marker.length > data.length) return -1;
    if (startsWith(data.subarray(at), marker)) return at;
  }
  return -1;
}

function startsWith(data: Uint8Array, prefix: Uint8Array): boolean {
  if (prefix.length > data.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[i] !== prefix[i]) return false;
  return true;
}
