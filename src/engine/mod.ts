/** The protocol-agnostic core: tools from MTDF, argument checks, the sandbox, running commands. */
export { buildToolSpecs, dropNameCollisions, type NameCollision } from "./tool_registry.ts";
export { buildArgv } from "./argv_builder.ts";
export { InvalidArgumentError } from "./argument_checker.ts";
export { SANDBOXED_SHELL, sandboxedShellSpec } from "./builtin_tools.ts";
export type { CommandEnd, CommandResult, CommandRunner, RunOptions } from "./command_runner.ts";
export { SpawnRunner } from "./spawn_runner.ts";
export { type Sandbox, type SpawnPlan, UnconfinedSandbox } from "./sandbox.ts";
export {
  bubblewrapPolicy,
  BubblewrapSandbox,
  SANDBOX_CACHE_DIRECTORY,
  sandboxCacheEnvironment,
  TOOLCHAIN_HOME_DIRECTORIES,
} from "./bubblewrap_sandbox.ts";
export { seatbeltProfile, SeatbeltSandbox } from "./seatbelt_sandbox.ts";
export { createSandbox, type SandboxOptions, SandboxUnavailableError } from "./sandbox_factory.ts";
export { SandboxScope, ScopeViolationError } from "./sandbox_scope.ts";
export {
  type CallOptions,
  DEFAULT_TIMEOUT_SECONDS,
  Engine,
  type EngineOptions,
  isSuccess,
  type StepResult,
  succeeded,
  type ToolRunResult,
  UnknownToolError,
} from "./engine.ts";
export type { CommandToolSpec, JsonSchemaObject, SequenceToolSpec, ToolSpec } from "./tool_spec.ts";
export { META_PARAMETERS } from "./tool_spec.ts";
export { type ExecutionMode, mayRunInBackground, resolveExecutionMode } from "./execution_mode.ts";
export { isFinished, type Operation, type OperationState } from "./operation.ts";
export {
  OperationRegistry,
  type OperationRegistryOptions,
  type StartOptions,
} from "./operation_registry.ts";
export { cutMiddle, DEFAULT_OUTPUT_CAP } from "./output_cap.ts";
export type { PreparedCall } from "./engine.ts";
export {
  type Availability,
  findExecutable,
  type MissingTool,
  partitionByAvailability,
} from "./tool_availability.ts";
export { type DoctorCheck, type DoctorInputs, renderDoctorReport, runDoctor } from "./doctor.ts";
export {
  DEFAULT_MAX_SHELLS,
  DEFAULT_SHELL_IDLE_SECONDS,
  DEFAULT_WARM_SHELLS,
  type ShellCounts,
  ShellPool,
  type ShellPoolOptions,
} from "./shell_pool.ts";
export { PooledRunner } from "./pooled_runner.ts";
