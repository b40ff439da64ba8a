import assert from "node:assert/strict";
import { seatbeltProfile, SeatbeltSandbox } from "../../src/engine/seatbelt_sandbox.ts";
import { SandboxScope } from "../../src/engine/sandbox_scope.ts";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";

const HOME = "/Users/someone";
const SCOPE = "/Users/someone/project";
const OPTIONS = { home: HOME, tempDirectory: "/var/folders/xy/T/" };

/** The profile's rules, one per line. */
function rules(
  roots: string[],
  options: Parameters<typeof seatbeltProfile>[1] = OPTIONS,
): string[] {
  return seatbeltProfile(roots, options).split("\n");
}

/** The index of the first rule starting with `head`, asserting there is one. */
function ruleIndex(lines: string[], head: string): number {
  const index = lines.findIndex((line) => line.startsWith(head));
  assert.ok(index >= 0, `no rule starts with ${head}:\n${lines.join("\n")}`);
  return index;
}

Deno.test("seatbeltProfile() denies by default", () => {
  assert.deepEqual(rules([SCOPE]).slice(0, 2), ["(version 1)", "(deny default)"]);
});

Deno.test("seatbeltProfile() lets commands write the scope and the temp directories only", () => {
  const lines = rules([SCOPE]);
  const writes = lines.filter((line) => line.startsWith("(allow file-write*"));
  assert.equal(writes.length, 1);
  assert.match(writes[0] ?? "", /\(subpath "\/Users\/someone\/project"\)/);
  assert.match(writes[0] ?? "", /\(subpath "\/private\/tmp"\)/);
  assert.doesNotMatch(writes[0] ?? "", /\(subpath "\/Users\/someone"\)/);
  assert.doesNotMatch(writes[0] ?? "", /\(subpath "\/dev"\)/);
});

Deno.test("seatbeltProfile() hides the home directory but for toolchains and the scope", () => {
  const lines = rules([SCOPE]);
  const deny = ruleIndex(lines, "(deny file-read*");
  assert.match(lines[deny] ?? "", /\(subpath "\/Users\/someone"\)/);
  const allow = lines.findIndex((line, i) => i > deny && line.startsWith("(allow file-read* "));
  assert.ok(allow > deny);
  assert.match(lines[allow] ?? "", /\(subpath "\/Users\/someone\/\.cargo"\)/);
  assert.match(lines[allow] ?? "", /\(subpath "\/Users\/someone\/project"\)/);
});

Deno.test("seatbeltProfile() guards .git after allowing the scope's writes", () => {
  const lines = rules([SCOPE]);
  const guard = ruleIndex(lines, "(deny file-write*");
  assert.ok(guard > ruleIndex(lines, "(allow file-write*"));
  for (
    const filter of [
      '(literal "/Users/someone/project/.git")',
      '(subpath "/Users/someone/project/.git/hooks")',
      '(literal "/Users/someone/project/.git/config")',
      '(literal "/Users/someone/project/.git/commondir")',
    ]
  ) {
    assert.ok(lines[guard]?.includes(filter), filter);
  }
});

Deno.test("seatbeltProfile() denies the network with noNetwork, resolver included", () => {
  const open = rules([SCOPE]);
  assert.ok(open.includes("(allow network*)"));
  assert.ok(open.some((line) => line.includes("mDNSResponder")));
  const closed = rules([SCOPE], { ...OPTIONS, noNetwork: true });
  assert.ok(closed.includes("(deny network*)"));
  assert.ok(!closed.includes("(allow network*)"));
  assert.ok(!closed.some((line) => line.includes("mDNSResponder")));
});

Deno.test("seatbeltProfile() blocks host daemons' unix sockets but not the scope's", () => {
  const lines = rules([SCOPE]);
  const deny = lines.indexOf('(deny network-outbound (remote unix-socket (subpath "/")))');
  const allow = ruleIndex(lines, "(allow network-outbound");
  assert.ok(deny >= 0 && allow > deny);
  assert.match(
    lines[allow] ?? "",
    /\(remote unix-socket \(subpath "\/Users\/someone\/project"\)\)/,
  );
});

Deno.test("seatbeltProfile() escapes quotes and backslashes in paths", () => {
  const profile = seatbeltProfile(['/Users/someone/a "quoted" \\ dir'], OPTIONS);
  assert.ok(profile.includes('(subpath "/Users/someone/a \\"quoted\\" \\\\ dir")'), profile);
  assert.ok(!profile.includes('a "quoted"'));
});

Deno.test("SeatbeltSandbox.wrap() runs the argv under sandbox-exec with caches in the scope", async () => {
  await using workspace = await makeTempWorkspace();
  const sandbox = new SeatbeltSandbox(await SandboxScope.create([workspace.path]), OPTIONS);
  const plan = sandbox.wrap(["npm", "install"], workspace.path);
  assert.equal(plan.command, "/usr/bin/sandbox-exec");
  assert.equal(plan.args[0], "-p");
  assert.equal(plan.args[2], "/usr/bin/env");
  assert.ok(plan.args.includes(`npm_config_cache=${workspace.path}/.ahma/cache/npm`));
  assert.deepEqual(plan.args.slice(-2), ["npm", "install"]);
  assert.equal(plan.cwd, workspace.path);
});
