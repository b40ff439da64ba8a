import { formatProblem } from "../config/mod.ts";
import {
  buildToolSpecs,
  createSandbox,
  dropNameCollisions,
  Engine,
  partitionByAvailability,
  PooledRunner,
  type Sandbox,
  sandboxedShellSpec,
  SandboxScope,
  ShellPool,
} from "../engine/mod.ts";
import type { CliArguments } from "./cli_options.ts";
import type { Logger } from "./logger.ts";
import { RESERVED_TOOL_NAMES } from "../mcp/mod.ts";
import { loadCatalog } from "./tool_catalog_source.ts";

/** The engine and what `serve` reports about how it was built. */
export interface BuiltEngine {
  engine: Engine;
  sandbox: Sandbox;
  /** The warm shells that run the engine's commands; close it when the server stops. */
  pool: ShellPool;
  /** Said to the client in the server's instructions. */
  warnings: string[];
}

/** The warning printed and sent when commands run unconfined. */
export const NO_SANDBOX_WARNING =
  "WARNING: --no-sandbox: commands run UNCONFINED, with every permission of the user running ahma. Nothing keeps them inside the workspace.";

/**
 * Loads the tool files (logging each rejected one and a summary), checks the scope, proves the
 * sandbox works and builds the engine. Throws when ahma cannot run safely.
 */
export async function buildEngine(cli: CliArguments, logger: Logger): Promise<BuiltEngine> {
  const { catalog, origin } = await loadCatalog(cli.toolsDir);
  for (const problem of catalog.problems) logger.error(formatProblem(problem));
  const scope = await SandboxScope.create(
    cli.sandboxScopes.length > 0 ? cli.sandboxScopes : [Deno.cwd()],
  );
  const sandbox = await createSandbox(scope, {
    noSandbox: cli.noSandbox,
    noNetwork: cli.noNetwork,
  });
  const warnings = cli.noSandbox ? [NO_SANDBOX_WARNING] : [];
  for (const warning of warnings) logger.warn(warning);
  const { available, missing } = partitionByAvailability(catalog.files);
  for (const tool of missing) {
    logger.warn(
      `tool "${tool.name}" left out: "${tool.command}" is not installed${
        tool.installInstructions ? `; ${tool.installInstructions}` : ""
      }`,
    );
  }
  const { unique: specs, collisions } = dropNameCollisions(
    [sandboxedShellSpec(), ...buildToolSpecs(available)],
    RESERVED_TOOL_NAMES,
  );
  for (const { spec, takenBy } of collisions) {
    logger.error(
      `${spec.sourcePath}: tool "${spec.name}" left out: the name is already taken by ${takenBy}; rename the tool or subcommand`,
    );
  }
  const pool = new ShellPool();
  // The sandbox already proved it works; warming its shells need not delay the first tools/list.
  pool.prewarm(sandbox);
  const engine = new Engine(specs, new PooledRunner(pool, sandbox), scope, {
    readOnly: cli.readOnly,
    ...(cli.timeoutSeconds ? { defaultTimeoutSeconds: cli.timeoutSeconds } : {}),
  });
  const rejected = new Set(catalog.problems.map((problem) => problem.path)).size;
  logger.info(
    `loaded ${engine.tools.length} tools from ${available.length} of ${catalog.fileCount} files in ${origin} (${rejected} rejected, ${missing.length} not installed); scope ${
      scope.roots.join(", ")
    }; sandbox ${sandbox.kind}`,
  );
  return { engine, sandbox, pool, warnings };
}
