import assert from "node:assert/strict";
import { join } from "node:path";
import {
  bubblewrapPolicy,
  BubblewrapSandbox,
  TOOLCHAIN_HOME_DIRECTORIES,
} from "../../src/engine/bubblewrap_sandbox.ts";
import { SandboxScope } from "../../src/engine/sandbox_scope.ts";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";

const HOME = "/home/someone";

/** Where `sequence` starts in `args`, or -1: bwrap arguments come in groups like `--bind A B`. */
function indexOfSequence(args: string[], sequence: string[]): number {
  return args.findIndex((_, start) => sequence.every((word, i) => args[start + i] === word));
}

Deno.test("bubblewrapPolicy() mounts the private /tmp before the scope, so a /tmp scope shows", async () => {
  await using workspace = await makeTempWorkspace();
  const args = bubblewrapPolicy([workspace.path], { home: HOME });
  const tmp = indexOfSequence(args, ["--tmpfs", "/tmp"]);
  const scope = indexOfSequence(args, ["--bind", workspace.path, workspace.path]);
  assert.ok(tmp >= 0 && scope > tmp, args.join(" "));
  assert.deepEqual(args.slice(0, 3), ["--ro-bind", "/", "/"]);
});

Deno.test("bubblewrapPolicy() hides the home directory and /run, then shows toolchains read-only", async () => {
  await using workspace = await makeTempWorkspace();
  const args = bubblewrapPolicy([workspace.path], { home: HOME });
  const home = indexOfSequence(args, ["--tmpfs", HOME]);
  assert.ok(home >= 0);
  assert.ok(indexOfSequence(args, ["--tmpfs", "/run"]) >= 0);
  for (const entry of TOOLCHAIN_HOME_DIRECTORIES) {
    const path = join(HOME, entry);
    assert.ok(indexOfSequence(args, ["--ro-bind-try", path, path]) > home, entry);
  }
  assert.equal(indexOfSequence(args, ["--bind", HOME, HOME]), -1);
  assert.equal(indexOfSequence(args, ["--ro-bind", HOME, HOME]), -1);
});

Deno.test("bubblewrapPolicy() pins an existing .git and makes its hooks and config read-only", async () => {
  await using workspace = await makeTempWorkspace();
  const git = join(workspace.path, ".git");
  await Deno.mkdir(join(git, "hooks"), { recursive: true });
  const args = bubblewrapPolicy([workspace.path], { home: HOME });
  const scope = indexOfSequence(args, ["--bind", workspace.path, workspace.path]);
  const pinned = indexOfSequence(args, ["--bind", git, git]);
  const hooks = indexOfSequence(args, ["--ro-bind-try", join(git, "hooks"), join(git, "hooks")]);
  const config = indexOfSequence(args, ["--ro-bind-try", join(git, "config"), join(git, "config")]);
  assert.ok(scope < pinned && pinned < hooks && pinned < config, args.join(" "));
});

Deno.test("bubblewrapPolicy() makes a .git file read-only and leaves a missing .git alone", async () => {
  await using workspace = await makeTempWorkspace();
  const git = join(workspace.path, ".git");
  assert.ok(!bubblewrapPolicy([workspace.path], { home: HOME }).some((a) => a.startsWith(git)));
  await Deno.writeTextFile(git, "gitdir: /elsewhere\n");
  const args = bubblewrapPolicy([workspace.path], { home: HOME });
  assert.ok(indexOfSequence(args, ["--ro-bind", git, git]) >= 0, args.join(" "));
  assert.equal(indexOfSequence(args, ["--bind", git, git]), -1);
});

Deno.test("bubblewrapPolicy() unshares the network only with noNetwork", async () => {
  await using workspace = await makeTempWorkspace();
  assert.ok(!bubblewrapPolicy([workspace.path], { home: HOME }).includes("--unshare-net"));
  assert.ok(
    bubblewrapPolicy([workspace.path], { home: HOME, noNetwork: true }).includes("--unshare-net"),
  );
});

Deno.test("bubblewrapPolicy() drops every capability and dies with ahma", async () => {
  await using workspace = await makeTempWorkspace();
  const args = bubblewrapPolicy([workspace.path], { home: HOME });
  assert.ok(indexOfSequence(args, ["--cap-drop", "ALL"]) >= 0);
  for (const flag of ["--die-with-parent", "--unshare-pid", "--new-session"]) {
    assert.ok(args.includes(flag), flag);
  }
});

Deno.test("bubblewrapPolicy() points toolchain caches into the first scope", async () => {
  await using first = await makeTempWorkspace();
  await using second = await makeTempWorkspace();
  const args = bubblewrapPolicy([first.path, second.path], { home: HOME });
  const cache = join(first.path, ".ahma", "cache");
  const expected = {
    XDG_CACHE_HOME: cache,
    DENO_DIR: join(cache, "deno"),
    npm_config_cache: join(cache, "npm"),
    CARGO_HOME: join(cache, "cargo"),
  };
  for (const [name, value] of Object.entries(expected)) {
    assert.ok(indexOfSequence(args, ["--setenv", name, value]) >= 0, name);
  }
});

Deno.test("BubblewrapSandbox.wrap() guards a .git made after the sandbox was built", async () => {
  await using workspace = await makeTempWorkspace();
  const sandbox = new BubblewrapSandbox(await SandboxScope.create([workspace.path]));
  const git = join(workspace.path, ".git");
  assert.equal(indexOfSequence(sandbox.wrap(["true"], workspace.path).args, ["--bind", git]), -1);
  await Deno.mkdir(git);
  const plan = sandbox.wrap(["git", "status"], workspace.path);
  assert.equal(plan.command, "bwrap");
  assert.ok(indexOfSequence(plan.args, ["--bind", git, git]) >= 0);
  assert.deepEqual(plan.args.slice(-5), ["--chdir", workspace.path, "--", "git", "status"]);
});
