/** Host pids of the running processes whose command line contains `token` (Linux /proc). */
export async function pidsWithCommandLine(token: string): Promise<number[]> {
  const pids: number[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const commandLine = await Deno.readTextFile(`/proc/${entry.name}/cmdline`);
      if (commandLine.includes(token)) pids.push(Number(entry.name));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** True when the process no longer runs: it is gone, or a zombie waiting to be reaped. */
export async function isGone(pid: number): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/** Polls until `check` holds or `timeoutMs` passes; returns whether it held. */
export async function eventually(
  check: () => Promise<boolean>,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (true) {
    if (await check()) return true;
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A token unlikely to appear in any other process's command line, usable as `sleep` seconds. */
export function uniqueSleepSeconds(): string {
  return `1000.${crypto.getRandomValues(new Uint32Array(1))[0]}`;
}
