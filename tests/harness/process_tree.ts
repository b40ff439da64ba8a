/** The pids of every process below `pid` (children, grandchildren, ...), read from /proc. */
export function descendantsOf(pid: number): number[] {
  const found: number[] = [];
  const queue = [pid];
  // Bounded: a process tree of a test never has thousands of members.
  for (let i = 0; i < queue.length && i < 10_000; i++) {
    for (const child of childrenOf(queue[i] ?? 0)) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/**
 * The direct children of `pid`, found by the parent pid in each process's /proc/PID/stat (the
 * per-thread `children` files need a kernel option that not every kernel has).
 */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      // Fields after the command name (which may hold spaces): state, then the parent pid.
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === pid) children.push(Number(entry.name));
    } catch {
      // The process ended while the table was read.
    }
  }
  return children;
}

/** The command line of a live process, words joined by spaces; "" when it is gone. */
export function commandLineOf(pid: number): string {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** Pids of live processes whose command line contains `text`. */
export function processesMentioning(text: string): number[] {
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const pid = Number(entry.name);
    if (pid !== Deno.pid && commandLineOf(pid).includes(text)) pids.push(pid);
  }
  return pids;
}
