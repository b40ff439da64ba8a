import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** A path argument that resolves outside every sandbox scope; refused before anything runs. */
export class ScopeViolationError extends Error {
  override name = "ScopeViolationError";
  constructor(readonly argument: string, readonly path: string) {
    super(
      `Cannot use "${argument}": "${path}" is outside the sandbox scope; pass a path inside it`,
    );
  }
}

/** The directories commands may write: real paths, checked when created. */
export class SandboxScope {
  private constructor(readonly roots: readonly string[]) {}

  /**
   * Resolves and checks scope directories: each must exist, and neither the filesystem root nor
   * the home directory itself may be a scope.
   */
  static async create(
    directories: string[],
    options: { home?: string } = {},
  ): Promise<SandboxScope> {
    const { home = Deno.env.get("HOME") } = options;
    const homeReal = home ? await realPathOrSelf(home) : undefined;
    const roots: string[] = [];
    for (const directory of directories) {
      let real: string;
      try {
        real = await Deno.realPath(directory);
      } catch (error) {
        throw new RangeError(
          `Cannot use sandbox scope "${directory}": it does not exist; create it or pass another`,
          { cause: error },
        );
      }
      if (!(await Deno.stat(real)).isDirectory) {
        throw new RangeError(`Cannot use sandbox scope "${directory}": it is not a directory`);
      }
      if (real === "/" || real === homeReal || (homeReal?.startsWith(`${real}${sep}`) ?? false)) {
        throw new RangeError(
          `Cannot use sandbox scope "${directory}": the filesystem root, the home directory and its parents are too broad; pass a project directory`,
        );
      }
      if (!roots.includes(real)) roots.push(real);
    }
    if (roots.length === 0) throw new RangeError("Cannot start without a sandbox scope");
    return new SandboxScope(roots);
  }

  /** The first scope: where calls run when they name no working directory. */
  get primary(): string {
    return this.roots[0] ?? "/";
  }

  /** True when an absolute real path is a scope or lies under one. */
  contains(path: string): boolean {
    return this.roots.some((root) => {
      const rest = relative(root, path);
      // `..cache` is a name inside; only a whole `..` component leads out.
      return rest === "" || (rest !== ".." && !rest.startsWith(`..${sep}`) && !isAbsolute(rest));
    });
  }

  /**
   * Resolves `value` against `base` the way the kernel will, following every symlink, and
   * returns the real path, or throws {@linkcode ScopeViolationError} when it leaves the scope.
   */
  async resolve(argument: string, value: string, base: string): Promise<string> {
    const real = await kernelResolve(isAbsolute(value) ? value : `${base}${sep}${value}`);
    if (!this.contains(real)) throw new ScopeViolationError(argument, value);
    return real;
  }
}

/** Symlinks followed in one resolution before giving up, as Linux's MAXSYMLINKS. */
const MAX_SYMLINKS = 40;

/**
 * Walks a path one component at a time, replacing each existing prefix by its real path before
 * applying the next component. Lexical normalisation alone would be wrong: `link/../x` with
 * `link -> /etc` is `/x` to the kernel, not `x` beside `link`. A dangling symlink is followed
 * to where it points, since writing through it would create its target.
 */
async function kernelResolve(path: string, depth = 0): Promise<string> {
  if (depth > MAX_SYMLINKS) throw new RangeError(`Cannot resolve "${path}": too many symlinks`);
  let current = "/";
  let exists = true;
  for (const component of path.split(sep)) {
    if (component === "" || component === ".") continue;
    if (component === "..") {
      current = dirname(current);
      continue;
    }
    const next = join(current, component);
    if (!exists) {
      current = next;
      continue;
    }
    try {
      current = await Deno.realPath(next);
      continue;
    } catch {
      exists = false;
    }
    const target = await danglingLinkTarget(next);
    current = target === undefined
      ? next
      : await kernelResolve(isAbsolute(target) ? target : join(current, target), depth + 1);
  }
  return resolve(current);
}

async function danglingLinkTarget(path: string): Promise<string | undefined> {
  try {
    return (await Deno.lstat(path)).isSymlink ? await Deno.readLink(path) : undefined;
  } catch {
    return undefined;
  }
}

async function realPathOrSelf(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch {
    return path;
  }
}
