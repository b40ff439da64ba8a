import type { MtdfArgument } from "../config/mod.ts";
import { ArgumentChecker } from "./argument_checker.ts";
import { buildArgv } from "./argv_builder.ts";
import type { CommandResult, CommandRunner } from "./command_runner.ts";
import { parameterName } from "./input_schema.ts";
import type { SandboxScope } from "./sandbox_scope.ts";
import type { CommandToolSpec, SequenceToolSpec, ToolSpec } from "./tool_spec.ts";

/** Seconds before a call's process group is killed when neither call nor tool sets a timeout. */
export const DEFAULT_TIMEOUT_SECONDS = 300;

/** A call naming a tool that does not exist (or is hidden by read-only mode). */
export class UnknownToolError extends Error {
  override name = "UnknownToolError";
  constructor(readonly toolName: string) {
    super(`Cannot call "${toolName}": no such tool; list the tools and pick one`);
  }
}

/** One finished step of a sequence. */
export interface StepResult {
  name: string;
  result: CommandResult;
}

/** What a call produced: one command's result, or each step of a sequence. */
export type ToolRunResult =
  | { kind: "command"; name: string; result: CommandResult }
  | { kind: "sequence"; name: string; steps: StepResult[]; skipped: string[] };

/** A call whose checks passed, ready to run. */
export interface PreparedCall {
  spec: ToolSpec;
  /** The command line, or the sequence's name, for status listings and logs. */
  display: string;
  /** Runs it; resolves when it and its processes are gone. */
  run(options?: CallOptions): Promise<ToolRunResult>;
}

/** Options for {@linkcode Engine}. */
export interface EngineOptions {
  /** Timeout when neither the call nor the tool sets one. Default: DEFAULT_TIMEOUT_SECONDS. */
  defaultTimeoutSeconds?: number;
  /** Only tools annotated `readOnlyHint: true` are listed or callable. Default: false. */
  readOnly?: boolean;
}

/** Options for {@linkcode Engine.call}. */
export interface CallOptions {
  /** Aborting kills the running command's process tree. */
  signal?: AbortSignal;
  /** Receives output as it arrives. */
  onOutput?: (text: string) => void;
}

/** True when every command of a run exited with status 0. */
export function succeeded(run: ToolRunResult): boolean {
  if (run.kind === "command") return isSuccess(run.result);
  return run.skipped.length === 0 && run.steps.every((step) => isSuccess(step.result));
}

/** True when a command exited by itself with status 0. */
export function isSuccess(result: CommandResult): boolean {
  return result.end === "exited" && result.exitCode === 0;
}

/** The protocol-agnostic core: the tools, and running a call of one of them. */
export class Engine {
  readonly #tools: Map<string, ToolSpec>;
  readonly #checker = new ArgumentChecker();
  readonly #defaultTimeoutSeconds: number;

  constructor(
    tools: ToolSpec[],
    readonly runner: CommandRunner,
    readonly scope: SandboxScope,
    options: EngineOptions = {},
  ) {
    const { defaultTimeoutSeconds = DEFAULT_TIMEOUT_SECONDS, readOnly = false } = options;
    if (!(defaultTimeoutSeconds > 0)) {
      throw new RangeError(`Cannot use timeout ${defaultTimeoutSeconds}: it must be above 0`);
    }
    this.#defaultTimeoutSeconds = defaultTimeoutSeconds;
    const visible = readOnly
      ? tools.filter((tool) => tool.annotations.readOnlyHint === true)
      : tools;
    this.#tools = new Map(visible.map((tool) => [tool.name, tool]));
  }

  /** Every callable tool, in definition order. */
  get tools(): ToolSpec[] {
    return [...this.#tools.values()];
  }

  /** The tool of that name, if it is callable. */
  find(name: string): ToolSpec | undefined {
    return this.#tools.get(name);
  }

  /**
   * Checks the arguments and every path in them, then runs the tool. Throws before anything
   * runs when a check fails; a command that fails is a result, not an exception.
   */
  async call(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<ToolRunResult> {
    return await (await this.prepare(name, args)).run(options);
  }

  /**
   * Does every check of a call (tool exists, arguments fit its schema, paths inside the scope)
   * and returns the call ready to run, so a background start can refuse a bad call at once.
   */
  async prepare(name: string, args: Record<string, unknown>): Promise<PreparedCall> {
    const spec = this.find(name);
    if (!spec) throw new UnknownToolError(name);
    this.#checker.check(spec, args);
    const cwd = await this.#workingDirectory(args);
    if (spec.kind === "sequence") {
      return {
        spec,
        display: spec.name,
        run: (options = {}) => this.#runSequence(spec, args, cwd, options),
      };
    }
    await this.#checkPaths(spec, args, cwd);
    const argv = buildArgv(spec, args);
    const timeoutSeconds = numberOr(
      args.timeout_seconds,
      spec.timeoutSeconds ?? this.#defaultTimeoutSeconds,
    );
    return {
      spec,
      display: argv.join(" "),
      run: async (options = {}) => ({
        kind: "command",
        name,
        result: await this.runner.run(argv, { cwd, timeoutSeconds, ...options }),
      }),
    };
  }

  async #workingDirectory(args: Record<string, unknown>): Promise<string> {
    const requested = args.working_directory;
    if (typeof requested !== "string") return this.scope.primary;
    const cwd = await this.scope.resolve("working_directory", requested, this.scope.primary);
    const info = await Deno.stat(cwd).catch(() => undefined);
    if (!info?.isDirectory) {
      throw new RangeError(
        `Cannot use "working_directory": "${requested}" is not a directory; pass an existing directory`,
      );
    }
    return cwd;
  }

  async #checkPaths(
    spec: CommandToolSpec,
    args: Record<string, unknown>,
    cwd: string,
  ): Promise<void> {
    for (const argument of [...spec.options, ...spec.positionalArgs]) {
      if (!isPathArgument(argument)) continue;
      const key = parameterName(argument);
      const value = args[key];
      const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
      for (const item of values) await this.scope.resolve(key, String(item), cwd);
    }
  }

  async #runSequence(
    spec: SequenceToolSpec,
    args: Record<string, unknown>,
    cwd: string,
    options: CallOptions,
  ): Promise<ToolRunResult> {
    const steps: StepResult[] = [];
    const shared = { working_directory: cwd, ...pick(args, "timeout_seconds") };
    for (const [index, step] of spec.steps.entries()) {
      if (index > 0 && spec.stepDelayMs > 0) await delay(spec.stepDelayMs, options.signal);
      const run = await this.call(step.toolName, { ...step.args, ...shared }, options);
      steps.push(
        ...(run.kind === "command" ? [{ name: run.name, result: run.result }] : run.steps),
      );
      if (!succeeded(run)) {
        return {
          kind: "sequence",
          name: spec.name,
          steps,
          skipped: spec.steps.slice(index + 1).map((s) => s.toolName),
        };
      }
    }
    return { kind: "sequence", name: spec.name, steps, skipped: [] };
  }
}

function isPathArgument(argument: MtdfArgument): boolean {
  return argument.format === "path" || argument.items?.format === "path";
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" ? value : fallback;
}

function pick(args: Record<string, unknown>, key: string): Record<string, unknown> {
  return key in args ? { [key]: args[key] } : {};
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
