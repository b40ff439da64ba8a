import {
  createSandbox,
  type DoctorCheck,
  renderDoctorReport,
  runDoctor,
  type Sandbox,
  SandboxScope,
  SpawnRunner,
  UnconfinedSandbox,
} from "../engine/mod.ts";
import type { CliArguments } from "./cli_options.ts";
import { loadCatalog } from "./tool_catalog_source.ts";

/**
 * `ahma doctor`: checks what serving would need, reporting every problem with its fix instead
 * of stopping at the first. Prints the report; returns 1 when something is broken.
 */
export async function doctorCommand(cli: CliArguments): Promise<number> {
  const checks = await diagnose(cli);
  await Deno.stdout.write(new TextEncoder().encode(`${renderDoctorReport(checks)}\n`));
  return checks.every((check) => check.ok) ? 0 : 1;
}

/** Builds what it can of the setup described by the command line and runs every check. */
export async function diagnose(
  cli: CliArguments,
  options: { httpAddress?: string } = {},
): Promise<DoctorCheck[]> {
  const catalog = await loadCatalog(cli.toolsDir);
  const scope = await SandboxScope.create(
    cli.sandboxScopes.length > 0 ? cli.sandboxScopes : [Deno.cwd()],
  )
    .catch(asError);
  const sandbox: Sandbox | Error = scope instanceof Error
    ? new Error("not tried: the scope is broken")
    : await createSandbox(scope, { noSandbox: cli.noSandbox, noNetwork: cli.noNetwork }).catch(
      asError,
    );
  // With a broken sandbox the availability checks still run, unconfined: they only ask versions.
  const runner = new SpawnRunner(sandbox instanceof Error ? new UnconfinedSandbox() : sandbox);
  return await runDoctor({ catalog, scope, sandbox, runner, ...options });
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
