import { formatProblem, type ToolCatalog } from "../config/mod.ts";
import type { CommandRunner } from "./command_runner.ts";
import type { Sandbox } from "./sandbox.ts";
import type { SandboxScope } from "./sandbox_scope.ts";

/** One line of a doctor report: what was checked, whether it is fine, and the fix if not. */
export interface DoctorCheck {
  name: string;
  /** False for a broken setup; a tool that is merely not installed is ok, with a fix. */
  ok: boolean;
  detail: string;
  fix?: string;
}

/** What `doctor` looks at; a part that could not be built is given as the error it raised. */
export interface DoctorInputs {
  catalog: { catalog: ToolCatalog; origin: string };
  scope: SandboxScope | Error;
  sandbox: Sandbox | Error;
  /** Runs commands in the sandbox (or unconfined when the sandbox is broken). */
  runner: CommandRunner;
  /** Where HTTP mode listens, when it does. */
  httpAddress?: string;
}

/** Seconds each availability check may take. */
const CHECK_TIMEOUT_SECONDS = 10;

/** Checks the runtime, scope, sandbox (with a real probe), tool files and each tool's command. */
export async function runDoctor(inputs: DoctorInputs): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [{
    name: "runtime",
    ok: true,
    detail: `Deno ${Deno.version.deno} on ${Deno.build.os}-${Deno.build.arch}`,
  }];
  const { scope, sandbox } = inputs;
  checks.push(
    scope instanceof Error
      ? {
        name: "scope",
        ok: false,
        detail: scope.message,
        fix: "pass --sandbox-scope DIR with a project directory",
      }
      : { name: "scope", ok: true, detail: scope.roots.join(", ") },
  );
  const cwd = scope instanceof Error ? Deno.cwd() : scope.primary;
  checks.push(await sandboxCheck(sandbox, inputs.runner, cwd));
  checks.push(...catalogChecks(inputs.catalog));
  checks.push(...await availabilityChecks(inputs.catalog.catalog, inputs.runner, cwd));
  if (inputs.httpAddress) {
    checks.push({ name: "http", ok: true, detail: `listening on ${inputs.httpAddress}` });
  }
  return checks;
}

/** The report as text, one check per line, fixes indented under the broken ones. */
export function renderDoctorReport(checks: DoctorCheck[]): string {
  const lines = checks.flatMap((check) => [
    `${check.ok ? (check.fix ? "missing" : "ok     ") : "PROBLEM"} ${check.name}: ${check.detail}`,
    ...(check.fix ? [`        fix: ${check.fix}`] : []),
  ]);
  const problems = checks.filter((check) => !check.ok).length;
  lines.push(problems === 0 ? "All checks passed." : `${problems} problem(s) found.`);
  return lines.join("\n");
}

async function sandboxCheck(
  sandbox: Sandbox | Error,
  runner: CommandRunner,
  cwd: string,
): Promise<DoctorCheck> {
  if (sandbox instanceof Error) {
    return {
      name: "sandbox",
      ok: false,
      detail: sandbox.message,
      fix: "apt install bubblewrap (Linux)",
    };
  }
  if (sandbox.kind === "none") {
    return {
      name: "sandbox",
      ok: false,
      detail: "--no-sandbox: commands run unconfined",
      fix: "install bubblewrap and start without --no-sandbox",
    };
  }
  // A read-only mount makes access(W_OK) fail even for root, so this tells confined from not.
  const probe = await runner.run(
    ["sh", "-c", "echo probe; if [ -w /usr ]; then echo writable; fi"],
    {
      cwd,
      timeoutSeconds: CHECK_TIMEOUT_SECONDS,
    },
  );
  const confined = probe.exitCode === 0 && probe.output === "probe\n";
  return confined
    ? {
      name: "sandbox",
      ok: true,
      detail: `${sandbox.kind}: a probe command ran confined (system read-only)`,
    }
    : {
      name: "sandbox",
      ok: false,
      detail: `${sandbox.kind}: the probe command did not run confined (${
        probe.output.trim() || probe.end
      })`,
      fix: "check that bwrap runs: bwrap --ro-bind / / true",
    };
}

function catalogChecks({ catalog, origin }: DoctorInputs["catalog"]): DoctorCheck[] {
  const rejected = new Set(catalog.problems.map((problem) => problem.path));
  const summary: DoctorCheck = {
    name: "tool files",
    ok: rejected.size === 0,
    detail: `${catalog.fileCount - rejected.size} of ${catalog.fileCount} files in ${origin} valid`,
  };
  if (rejected.size > 0) summary.fix = "fix each file below; ahma validate shows the same";
  return [
    summary,
    ...catalog.problems.map((problem) => ({
      name: "tool file",
      ok: false,
      detail: formatProblem(problem),
      fix: "edit the file at that line",
    })),
  ];
}

async function availabilityChecks(
  catalog: ToolCatalog,
  runner: CommandRunner,
  cwd: string,
): Promise<DoctorCheck[]> {
  const checked = catalog.files.filter((file) => file.tool.availability_check);
  return await Promise.all(checked.map(async (file): Promise<DoctorCheck> => {
    const check = file.tool.availability_check ?? { command: file.tool.command };
    const argv = [check.command, ...(check.args ?? [])];
    const result = await runner.run(argv, { cwd, timeoutSeconds: CHECK_TIMEOUT_SECONDS });
    const works = result.end === "exited" && result.exitCode === 0;
    const firstLine = result.output.split("\n")[0]?.trim();
    const lastLine = result.output.trim().split("\n").at(-1) || result.end;
    // A tool that is not installed is left out of tools/list; that is not a broken setup.
    return {
      name: `tool ${file.name}`,
      ok: true,
      detail: `${argv.join(" ")}: ${
        works ? firstLine : `not available (${lastLine}); left out of tools/list`
      }`,
      ...(works ? {} : { fix: file.tool.install_instructions ?? `install ${check.command}` }),
    };
  }));
}
