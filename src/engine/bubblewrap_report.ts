/**
 * What bwrap reports about a sandbox it started (`--info-fd`), and what ahma checks it against:
 * the host pid of the sandbox's pid 1 and whether its PID namespace is really a new one.
 */

/**
 * Reads bwrap's `--info-fd` report (one JSON object), or its error message, from the shell's
 * stderr. Stops at the object's closing brace rather than waiting for the end of the stream,
 * which would hang if some bwrap kept the descriptor open in the sandbox.
 */
export async function readBubblewrapReport(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/^\s*\{[^]*\}\s*$/.test(text)) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += value;
  }
  await reader.cancel();
  return text;
}

/** What bwrap's `--info-fd` reported: the host pid of its pid 1 and its PID namespace. */
export interface BubblewrapInfo {
  childPid: number;
  pidNamespace: number;
}

/** The report's fields, or undefined when it is not a report (bwrap failed and said why). */
export function parseBubblewrapInfo(report: string): BubblewrapInfo | undefined {
  let value: unknown;
  try {
    value = JSON.parse(report);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const childPid: unknown = Reflect.get(value, "child-pid");
  const pidNamespace: unknown = Reflect.get(value, "pid-namespace");
  if (typeof childPid !== "number" || typeof pidNamespace !== "number") return undefined;
  return { childPid, pidNamespace };
}

/** The inode of ahma's own PID namespace, or undefined when /proc cannot tell. */
export async function hostPidNamespace(): Promise<number | undefined> {
  try {
    const match = /^pid:\[(\d+)\]$/.exec(await Deno.readLink("/proc/self/ns/pid"));
    return match?.[1] === undefined ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
}
