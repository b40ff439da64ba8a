import type { Sandbox } from "./sandbox.ts";
import { SandboxShells, shellPolicy } from "./sandbox_shells.ts";
import { WarmShell } from "./warm_shell.ts";

/** Idle shells kept started per sandbox, ready for the next call. */
export const DEFAULT_WARM_SHELLS = 2;
/** Most shells per sandbox at once; further calls wait for one. */
export const DEFAULT_MAX_SHELLS = 16;
/** Seconds a shell beyond the warm ones may stay idle before it is closed. */
export const DEFAULT_SHELL_IDLE_SECONDS = 60;

/** Options for {@linkcode ShellPool}. */
export interface ShellPoolOptions {
  /** Idle shells kept started per sandbox. Default: DEFAULT_WARM_SHELLS. */
  warmShells?: number;
  /** Most shells per sandbox; further calls queue. Default: DEFAULT_MAX_SHELLS. */
  maxShells?: number;
  /** Idle shells beyond `warmShells` are closed after this long. Default: DEFAULT_SHELL_IDLE_SECONDS. */
  idleSeconds?: number;
}

/** How many shells a sandbox has, by state. */
export interface ShellCounts {
  idle: number;
  busy: number;
  starting: number;
}

/**
 * Long-lived shells started inside a sandbox (warm_shell.ts), kept per Sandbox instance: a call
 * takes an idle one, or starts one while fewer than `maxShells` exist, or waits in line. A shell
 * that died, was killed or served its one command is replaced; `warmShells` stay idle; extra
 * idle ones are reaped. A shell keeps the policy it started under, so when the sandbox's plan
 * changes (a `.git` appeared, and with it the mounts that guard it) older shells are retired.
 */
export class ShellPool implements AsyncDisposable {
  readonly #warmShells: number;
  readonly #maxShells: number;
  readonly #idleMs: number;
  readonly #sets = new Map<Sandbox, SandboxShells>();
  readonly #homes = new Map<WarmShell, Home>();
  /** Shell starts and kills in flight; close() waits for them. */
  readonly #tasks = new Set<Promise<void>>();
  readonly #reaper: ReturnType<typeof setInterval>;
  /** Aborted by close(), which stops shells that are still starting. */
  readonly #closing = new AbortController();
  #closed = false;

  constructor(options: ShellPoolOptions = {}) {
    const {
      warmShells = DEFAULT_WARM_SHELLS,
      maxShells = DEFAULT_MAX_SHELLS,
      idleSeconds = DEFAULT_SHELL_IDLE_SECONDS,
    } = options;
    if (!Number.isInteger(maxShells) || maxShells < 1) {
      throw new RangeError(`Cannot use maxShells ${maxShells}: pass a whole number of at least 1`);
    }
    if (!Number.isInteger(warmShells) || warmShells < 0 || warmShells > maxShells) {
      throw new RangeError(
        `Cannot use warmShells ${warmShells}: pass a whole number from 0 to maxShells`,
      );
    }
    if (!(idleSeconds > 0)) {
      throw new RangeError(`Cannot use idleSeconds ${idleSeconds}: pass a positive number`);
    }
    this.#warmShells = warmShells;
    this.#maxShells = maxShells;
    this.#idleMs = idleSeconds * 1000;
    // Checks a few times per idle time, so a shell is reaped at most a quarter late.
    this.#reaper = setInterval(
      () => this.#reap(),
      Math.max(50, Math.min(this.#idleMs / 4, 15_000)),
    );
    // The reaper alone must not keep a finished program running.
    this.#reaper.unref();
  }

  /** Starts shells for the sandbox until `warmShells` are idle; throws when one cannot start. */
  async warm(sandbox: Sandbox): Promise<void> {
    const set = this.#setFor(sandbox);
    const starts: Promise<WarmShell>[] = [];
    while (this.#lacksWarm(set)) starts.push(this.#start(set, (shell) => this.#offer(shell)));
    await Promise.all(starts);
  }

  /**
   * Starts warming the sandbox's shells without waiting for them, so startup is not delayed: a
   * start that fails is left to the first call, which starts its own and reports the error.
   */
  prewarm(sandbox: Sandbox): void {
    this.#topUp(this.#setFor(sandbox));
  }

  /** Takes a shell of the sandbox for one command; give it back with {@linkcode release}. */
  async acquire(sandbox: Sandbox, signal?: AbortSignal): Promise<WarmShell> {
    const set = this.#setFor(sandbox);
    this.#retireOutdated(set);
    while (true) {
      if (this.#closed) throw new Error("Cannot run a command: the shell pool is closed");
      signal?.throwIfAborted();
      const idle = set.idle.pop();
      if (idle && !idle.shell.alive) {
        this.#retire(idle.shell);
        continue;
      }
      let shell = idle?.shell;
      if (shell) set.busy.add(shell);
      else if (set.size < this.#maxShells) shell = await this.#startForCall(set, signal);
      else shell = await this.#waitForShell(set, signal);
      if (!shell) continue;
      if (this.#closed) {
        this.release(shell);
        continue;
      }
      this.#topUp(set);
      return shell;
    }
  }

  /** Gives a shell back after its command: kept idle when it may serve again, else replaced. */
  release(shell: WarmShell): void {
    const home = this.#homes.get(shell);
    if (!home) return;
    home.set.busy.delete(shell);
    if (shell.reusable) this.#offer(shell);
    else this.#retire(shell);
    this.#topUp(home.set);
  }

  /** True once {@linkcode close} has begun. */
  get closed(): boolean {
    return this.#closed;
  }

  /** How many shells the sandbox has, by state. */
  counts(sandbox: Sandbox): ShellCounts {
    const set = this.#sets.get(sandbox);
    return { idle: set?.idle.length ?? 0, busy: set?.busy.size ?? 0, starting: set?.starting ?? 0 };
  }

  /** The host pids of the sandbox's live shells (the outer bwrap, or the shell itself). */
  shellPids(sandbox: Sandbox): number[] {
    const set = this.#sets.get(sandbox);
    if (!set) return [];
    return [...set.idle.map((idle) => idle.shell), ...set.busy].map((shell) => shell.pid);
  }

  /** Kills every shell and what it runs, fails waiting calls, and resolves when all are gone. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.abort();
    clearInterval(this.#reaper);
    for (const set of this.#sets.values()) {
      for (const waiter of set.waiters.splice(0)) waiter(undefined);
      for (const idle of set.idle.splice(0)) this.#retire(idle.shell);
      for (const shell of set.busy) this.#track(shell.kill());
    }
    while (this.#tasks.size > 0) await Promise.all(this.#tasks);
  }

  /** Closes the pool (`await using`). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #setFor(sandbox: Sandbox): SandboxShells {
    let set = this.#sets.get(sandbox);
    if (!set) {
      set = new SandboxShells(sandbox);
      this.#sets.set(sandbox, set);
    }
    return set;
  }

  #lacksWarm(set: SandboxShells): boolean {
    return !this.#closed && set.idle.length + set.starting < this.#warmShells &&
      set.size < this.#maxShells;
  }

  #topUp(set: SandboxShells): void {
    while (this.#lacksWarm(set)) {
      // A failed start is not retried here: the next call starts its own and reports the error.
      this.#track(this.#start(set, (shell) => this.#offer(shell)));
    }
  }

  /**
   * Starts a shell under the sandbox's current policy and registers it. `place` puts it in use
   * or idle in the same step that stops counting it as starting, so the count never dips.
   */
  #start(set: SandboxShells, place: (shell: WarmShell) => void): Promise<WarmShell> {
    set.starting++;
    const policy = set.policy;
    const onExit = (shell: WarmShell) => this.#onExit(shell);
    const signal = this.#closing.signal;
    const starting = WarmShell.start(set.sandbox, { onExit, signal }).then((shell) => {
      set.starting--;
      this.#homes.set(shell, { set, policy });
      place(shell);
      return shell;
    }, (error: unknown) => {
      set.starting--;
      this.#wake(set);
      throw error;
    });
    this.#track(starting);
    return starting;
  }

  /**
   * Starts a shell for a call. A call aborted meanwhile stops waiting, and the shell, once up,
   * goes to the next call or stays idle.
   */
  async #startForCall(set: SandboxShells, signal?: AbortSignal): Promise<WarmShell> {
    let abandoned = false;
    let claimed: WarmShell | undefined;
    const starting = this.#start(set, (shell) => {
      if (abandoned) return this.#offer(shell);
      claimed = shell;
      set.busy.add(shell);
    });
    let onAbort = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal?.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([starting, aborted]);
    } catch (error) {
      abandoned = true;
      if (claimed) this.release(claimed);
      throw error;
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Hands an idle shell to the first waiting call, or keeps it idle. */
  #offer(shell: WarmShell): void {
    const home = this.#homes.get(shell);
    if (!home) return;
    const { set, policy } = home;
    if (this.#closed || !shell.alive || policy !== set.policy) {
      this.#retire(shell);
      this.#wake(set);
      return;
    }
    const waiter = set.waiters.shift();
    if (waiter) {
      set.busy.add(shell);
      waiter(shell);
    } else {
      set.idle.push({ shell, since: performance.now() });
    }
  }

  /** Lets the first waiting call try again: a shell's place became free. */
  #wake(set: SandboxShells): void {
    set.waiters.shift()?.(undefined);
  }

  #waitForShell(set: SandboxShells, signal?: AbortSignal): Promise<WarmShell | undefined> {
    return new Promise((resolve, reject) => {
      const waiter = (shell: WarmShell | undefined) => {
        signal?.removeEventListener("abort", onAbort);
        resolve(shell);
      };
      const onAbort = () => {
        set.waiters.splice(set.waiters.indexOf(waiter), 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      set.waiters.push(waiter);
    });
  }

  #retire(shell: WarmShell): void {
    const home = this.#homes.get(shell);
    this.#homes.delete(shell);
    if (home) home.set.removeIdle(shell);
    this.#track(shell.kill());
  }

  #retireOutdated(set: SandboxShells): void {
    const policy = shellPolicy(set.sandbox);
    if (policy === set.policy) return;
    set.policy = policy;
    for (const idle of set.idle.splice(0)) this.#retire(idle.shell);
  }

  #onExit(shell: WarmShell): void {
    const home = this.#homes.get(shell);
    // A busy shell is retired when its call releases it.
    if (!home || home.set.busy.has(shell)) return;
    this.#homes.delete(shell);
    home.set.removeIdle(shell);
    this.#wake(home.set);
  }

  #reap(): void {
    const cutoff = performance.now() - this.#idleMs;
    for (const set of this.#sets.values()) {
      while (set.idle.length > this.#warmShells && (set.idle[0]?.since ?? Infinity) < cutoff) {
        const oldest = set.idle.shift();
        if (oldest) this.#retire(oldest.shell);
      }
    }
  }

  #track(task: Promise<unknown>): void {
    const tracked: Promise<void> = task.then(() => {}, () => {})
      .finally(() => this.#tasks.delete(tracked));
    this.#tasks.add(tracked);
  }
}

/** Where a shell belongs and the policy it started under. */
interface Home {
  set: SandboxShells;
  policy: string;
}
