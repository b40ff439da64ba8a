/** True when no process has that pid, or it is a zombie waiting to be reaped. */
export function isGone(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/** Waits (up to 5 s) for a command to write its pid to a file; returns the pid, or 0. */
export async function readPidFile(path: string): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const pid = Number(await Deno.readTextFile(path).catch(() => "0"));
    if (pid > 0) return pid;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return 0;
}
