import assert from "node:assert/strict";
import { join } from "node:path";
import { SandboxScope, ScopeViolationError } from "../../src/engine/mod.ts";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";

/** Asserts that resolving `value` inside the scope is refused as outside it. */
async function assertRefused(scope: SandboxScope, value: string, base: string): Promise<void> {
  await assert.rejects(
    () => scope.resolve("file", value, base),
    (error: unknown) => {
      assert.ok(error instanceof ScopeViolationError, String(error));
      assert.equal(error.argument, "file");
      assert.equal(error.path, value);
      assert.match(error.message, /is outside the sandbox scope; pass a path inside it$/);
      return true;
    },
  );
}

Deno.test("SandboxScope.resolve() accepts a relative path inside and returns its real path", async () => {
  await using workspace = await makeTempWorkspace();
  await Deno.mkdir(join(workspace.path, "src"));
  await Deno.writeTextFile(join(workspace.path, "src", "a.ts"), "");
  const scope = await SandboxScope.create([workspace.path]);
  assert.equal(
    await scope.resolve("file", "src/a.ts", workspace.path),
    join(workspace.path, "src", "a.ts"),
  );
  assert.equal(
    await scope.resolve("file", "a.ts", join(workspace.path, "src")),
    join(workspace.path, "src", "a.ts"),
  );
  assert.equal(await scope.resolve("file", ".", workspace.path), workspace.path);
});

Deno.test("SandboxScope.resolve() accepts an absolute path inside", async () => {
  await using workspace = await makeTempWorkspace();
  const scope = await SandboxScope.create([workspace.path]);
  const inside = join(workspace.path, "x");
  assert.equal(await scope.resolve("file", inside, "/"), inside);
});

Deno.test("SandboxScope.resolve() accepts a path inside that does not exist yet", async () => {
  await using workspace = await makeTempWorkspace();
  const scope = await SandboxScope.create([workspace.path]);
  assert.equal(
    await scope.resolve("file", "new/dir/file.txt", workspace.path),
    join(workspace.path, "new", "dir", "file.txt"),
  );
});

Deno.test("SandboxScope.resolve() accepts .. that stays inside", async () => {
  await using workspace = await makeTempWorkspace();
  await Deno.mkdir(join(workspace.path, "sub"));
  const scope = await SandboxScope.create([workspace.path]);
  assert.equal(
    await scope.resolve("file", "sub/../x", workspace.path),
    join(workspace.path, "x"),
  );
});

Deno.test("SandboxScope.resolve() accepts a name inside that begins with two dots", async () => {
  await using workspace = await makeTempWorkspace();
  const scope = await SandboxScope.create([workspace.path]);
  assert.equal(
    await scope.resolve("file", "..cache/x", workspace.path),
    join(workspace.path, "..cache", "x"),
  );
});

Deno.test("SandboxScope.resolve() refuses ../ leading out of the scope", async () => {
  await using workspace = await makeTempWorkspace();
  await Deno.mkdir(join(workspace.path, "sub"));
  const scope = await SandboxScope.create([workspace.path]);
  await assertRefused(scope, "../x", workspace.path);
  await assertRefused(scope, "sub/../../x", workspace.path);
  await assertRefused(scope, "../../../../../../../../etc/passwd", join(workspace.path, "sub"));
  await assertRefused(scope, "..", workspace.path);
});

Deno.test("SandboxScope.resolve() refuses an absolute path outside", async () => {
  await using workspace = await makeTempWorkspace();
  const scope = await SandboxScope.create([workspace.path]);
  await assertRefused(scope, "/etc/passwd", workspace.path);
  await assertRefused(scope, "/", workspace.path);
});

Deno.test("SandboxScope.resolve() refuses a sibling whose name extends the scope's", async () => {
  await using workspace = await makeTempWorkspace();
  const scope = await SandboxScope.create([workspace.path]);
  await assertRefused(scope, `${workspace.path}2/x`, workspace.path);
  await assertRefused(scope, `../${workspace.path.split("/").at(-1)}-other`, workspace.path);
});

Deno.test("SandboxScope.resolve() refuses a symlink inside pointing outside", async () => {
  await using workspace = await makeTempWorkspace();
  await using outside = await makeTempWorkspace();
  await Deno.writeTextFile(join(outside.path, "secret"), "s");
  await Deno.symlink(outside.path, join(workspace.path, "link"));
  await Deno.symlink(join(outside.path, "secret"), join(workspace.path, "file-link"));
  const scope = await SandboxScope.create([workspace.path]);
  await assertRefused(scope, "link", workspace.path);
  await assertRefused(scope, "link/secret", workspace.path);
  await assertRefused(scope, "link/not-yet", workspace.path);
  await assertRefused(scope, "file-link", workspace.path);
});

Deno.test("SandboxScope.resolve() refuses a relative symlink climbing out", async () => {
  await using workspace = await makeTempWorkspace();
  await Deno.mkdir(join(workspace.path, "a"));
  await Deno.symlink("../..", join(workspace.path, "a", "up"));
  const scope = await SandboxScope.create([workspace.path]);
  await assertRefused(scope, "a/up/x", workspace.path);
});

Deno.test("SandboxScope.resolve() refuses a dangling symlink pointing outside", async () => {
  await using workspace = await makeTempWorkspace();
  await using outside = await makeTempWorkspace();
  const target = join(outside.path, "does-not-exist", "file");
  await Deno.symlink(target, join(workspace.path, "dangling"));
  const scope = await SandboxScope.create([workspace.path]);
  await assertRefused(scope, "dangling", workspace.path);
  await assertRefused(scope, "dangling/deeper", workspace.path);
});

Deno.test("SandboxScope.resolve() refuses link/../x when link points outside", async () => {
  await using workspace = await makeTempWorkspace();
  await using outside = await makeTempWorkspace();
  await Deno.mkdir(join(outside.path, "deep"));
  await Deno.symlink(join(outside.path, "deep"), join(workspace.path, "link"));
  const scope = await SandboxScope.create([workspace.path]);
  // The kernel reads link/../x as outside/x, not as x beside link.
  await assertRefused(scope, "link/../x", workspace.path);
});

Deno.test("SandboxScope.resolve() accepts a symlink inside pointing inside", async () => {
  await using workspace = await makeTempWorkspace();
  await Deno.mkdir(join(workspace.path, "real"));
  await Deno.symlink("real", join(workspace.path, "alias"));
  await Deno.symlink(join(workspace.path, "missing"), join(workspace.path, "dangling-in"));
  const scope = await SandboxScope.create([workspace.path]);
  assert.equal(
    await scope.resolve("file", "alias/f", workspace.path),
    join(workspace.path, "real", "f"),
  );
  assert.equal(
    await scope.resolve("file", "dangling-in", workspace.path),
    join(workspace.path, "missing"),
  );
});

Deno.test("SandboxScope.resolve() refuses a symlink loop", async () => {
  await using workspace = await makeTempWorkspace();
  await Deno.symlink("b", join(workspace.path, "a"));
  await Deno.symlink("a", join(workspace.path, "b"));
  const scope = await SandboxScope.create([workspace.path]);
  await assert.rejects(() => scope.resolve("file", "a/x", workspace.path), /too many symlinks/);
});

Deno.test("SandboxScope.resolve() accepts a path in any of several scopes", async () => {
  await using first = await makeTempWorkspace();
  await using second = await makeTempWorkspace();
  await using outside = await makeTempWorkspace();
  const scope = await SandboxScope.create([first.path, second.path]);
  assert.deepEqual(scope.roots, [first.path, second.path]);
  assert.equal(scope.primary, first.path);
  assert.equal(await scope.resolve("file", join(second.path, "x"), "/"), join(second.path, "x"));
  await assertRefused(scope, join(outside.path, "x"), first.path);
});

Deno.test("SandboxScope.create() keeps real paths, once each", async () => {
  await using workspace = await makeTempWorkspace();
  await using other = await makeTempWorkspace();
  const link = join(other.path, "to-workspace");
  await Deno.symlink(workspace.path, link);
  const scope = await SandboxScope.create([link, workspace.path, `${workspace.path}/.`]);
  assert.deepEqual(scope.roots, [workspace.path]);
});

Deno.test("SandboxScope.create() refuses the filesystem root", async () => {
  await assert.rejects(
    () => SandboxScope.create(["/"]),
    (error: unknown) => {
      assert.ok(error instanceof RangeError);
      assert.match(
        error.message,
        /the filesystem root, the home directory and its parents are too broad/,
      );
      return true;
    },
  );
});

Deno.test("SandboxScope.create() refuses the home directory, also through a symlink", async () => {
  await using home = await makeTempWorkspace();
  await using other = await makeTempWorkspace();
  await Deno.symlink(home.path, join(other.path, "home-link"));
  const options = { home: home.path };
  await assert.rejects(() => SandboxScope.create([home.path], options), /too broad/);
  await assert.rejects(
    () => SandboxScope.create([join(other.path, "home-link")], options),
    /too broad/,
  );
  await Deno.mkdir(join(home.path, "project"));
  const scope = await SandboxScope.create([join(home.path, "project")], options);
  assert.deepEqual(scope.roots, [join(home.path, "project")]);
});

Deno.test("SandboxScope.create() refuses $HOME by default", async () => {
  const home = Deno.env.get("HOME");
  if (!home || !(await Deno.stat(home).catch(() => undefined))?.isDirectory) return;
  await assert.rejects(() => SandboxScope.create([home]), /too broad/);
});

Deno.test("SandboxScope.create() refuses a missing directory, a file and no directory", async () => {
  await using workspace = await makeTempWorkspace();
  await Deno.writeTextFile(join(workspace.path, "file"), "");
  await assert.rejects(
    () => SandboxScope.create([join(workspace.path, "missing")]),
    /does not exist; create it or pass another/,
  );
  await assert.rejects(
    () => SandboxScope.create([join(workspace.path, "file")]),
    /is not a directory/,
  );
  await assert.rejects(() => SandboxScope.create([]), RangeError);
});

Deno.test("SandboxScope.contains() takes a scope and what lies under it, nothing else", async () => {
  await using workspace = await makeTempWorkspace();
  const scope = await SandboxScope.create([workspace.path]);
  assert.equal(scope.contains(workspace.path), true);
  assert.equal(scope.contains(join(workspace.path, "a", "b")), true);
  assert.equal(scope.contains(join(workspace.path, "..x")), true);
  assert.equal(scope.contains(`${workspace.path}x`), false);
  assert.equal(scope.contains(join(workspace.path, "..")), false);
  assert.equal(scope.contains("/"), false);
});

Deno.test("SandboxScope.create() refuses a parent of the home directory", async () => {
  await using home = await makeTempWorkspace();
  await Deno.mkdir(`${home.path}/user`);
  await assert.rejects(
    () => SandboxScope.create([home.path], { home: `${home.path}/user` }),
    /home directory and its parents are too broad/,
  );
});
