import assert from "node:assert/strict";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client";
import { makeTempWorkspace, type TempWorkspace } from "../harness/temp_workspace.ts";
import { FIXTURE_TOOLS } from "../harness/repository.ts";
import { resultText } from "../harness/ahma_process.ts";
import { type AhmaHttp, startAhmaHttp } from "../harness/ahma_http.ts";
import { childrenOf, commandLineOf, descendantsOf } from "../harness/process_tree.ts";
import { isGone } from "../harness/process_state.ts";

async function startIsolated(home: TempWorkspace, extra: string[] = []): Promise<AhmaHttp> {
  return await startAhmaHttp([
    "--session-isolation",
    "--tools-dir",
    FIXTURE_TOOLS,
    "--sandbox-scope",
    home.path,
    ...extra,
  ]);
}

async function shell(client: Client, command: string): Promise<{ isError: boolean; text: string }> {
  const result = await client.callTool({ name: "sandboxed_shell", arguments: { command } });
  return { isError: result.isError === true, text: resultText(result) };
}

/** The isolated child ahma started for `root`, if any. */
function childFor(ahma: AhmaHttp, root: string): number | undefined {
  return childrenOf(ahma.serverPid).find((pid) =>
    commandLineOf(pid).includes(`--mode stdio --sandbox-scope ${root} `)
  );
}

async function waitUntil(probe: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!probe()) {
    if (performance.now() > deadline) throw new Error(`Timed out after ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function childCount(ahma: AhmaHttp): Promise<number> {
  const response = await fetch(`${ahma.origin}/health`);
  return (await response.json()).children;
}

/** Waits until /health counts `count` children (it counts a child gone once it is reaped). */
async function waitForChildCount(ahma: AhmaHttp, count: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await childCount(ahma) === count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(await childCount(ahma), count);
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test("--session-isolation: each session runs in its own child, confined to its first root", async () => {
  await using home = await makeTempWorkspace();
  await using rootA = await makeTempWorkspace("ahma_root_a_");
  await using rootB = await makeTempWorkspace("ahma_root_b_");
  await using ahma = await startIsolated(home);
  const a = await ahma.connect({ roots: [rootA.path, home.path], name: "client-a" });
  const b = await ahma.connect({ roots: [rootB.path], name: "client-b" });
  try {
    const inA = await shell(a.client, "pwd; echo from-a > mine.txt");
    assert.equal(inA.isError, false, inA.text);
    assert.match(inA.text, new RegExp(`^${rootA.path}\\n`));
    const inB = await shell(b.client, "pwd");
    assert.match(inB.text, new RegExp(`^${rootB.path}\\n`));
    assert.equal(await Deno.readTextFile(join(rootA.path, "mine.txt")), "from-a\n");

    const intoB = await shell(a.client, `echo intruder > ${join(rootB.path, "evil.txt")}`);
    assert.equal(intoB.isError, true, intoB.text);
    assert.equal(await exists(join(rootB.path, "evil.txt")), false);
    const intoHome = await shell(a.client, `echo intruder > ${join(home.path, "evil.txt")}`);
    assert.equal(intoHome.isError, true, "only the first root is the scope");
    assert.equal(await exists(join(home.path, "evil.txt")), false);

    const childA = childFor(ahma, rootA.path);
    assert.ok(childA);
    assert.ok(childFor(ahma, rootB.path));
    assert.equal(await childCount(ahma), 2);
    // The child's own Deno permissions: writes only in its root and the temp dir, no network.
    const childLine = commandLineOf(childA);
    assert.match(childLine, new RegExp(`--allow-write=${rootA.path},[^ ]+ `));
    assert.doesNotMatch(childLine, /--permission-set|--allow-net|--allow-all/);
  } finally {
    await a.client.close();
    await b.client.close();
  }
});

Deno.test("--session-isolation: a roots change after the lock ends the session (403)", async () => {
  await using home = await makeTempWorkspace();
  await using root = await makeTempWorkspace("ahma_root_");
  await using ahma = await startIsolated(home);
  const { client } = await ahma.connect({ roots: [root.path] });
  try {
    assert.equal((await shell(client, "true")).isError, false);
    const child = childFor(ahma, root.path);
    assert.ok(child);
    await client.sendRootsListChanged();
    await assert.rejects(client.listTools(), /403|roots changed/);
    await waitUntil(() => isGone(child), "the session's child to end");
  } finally {
    await client.close();
  }
});

Deno.test("--session-isolation: DELETE ends the session and its child", async () => {
  await using home = await makeTempWorkspace();
  await using root = await makeTempWorkspace("ahma_root_");
  await using ahma = await startIsolated(home);
  const { client, transport } = await ahma.connect({ roots: [root.path] });
  try {
    await shell(client, "true");
    const child = childFor(ahma, root.path);
    assert.ok(child);
    await transport.terminateSession();
    await waitUntil(() => isGone(child), "the child to be killed");
    await waitForChildCount(ahma, 0);
  } finally {
    await client.close();
  }
});

Deno.test("--session-isolation: a killed child fails its call at once and is replaced", async () => {
  await using home = await makeTempWorkspace();
  await using root = await makeTempWorkspace("ahma_root_");
  await using ahma = await startIsolated(home);
  const { client } = await ahma.connect({ roots: [root.path] });
  try {
    assert.equal((await shell(client, "true")).isError, false);
    const child = childFor(ahma, root.path);
    assert.ok(child);
    const slow = shell(client, "sleep 30").then(
      (result) => ({ result, at: performance.now() }),
      (error: Error) => ({ error, at: performance.now() }),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const killedAt = performance.now();
    Deno.kill(child, "SIGKILL");
    const outcome = await slow;
    const elapsed = outcome.at - killedAt;
    assert.ok("error" in outcome, "the call fails");
    assert.match(outcome.error.message, /killed by SIGKILL.*retry the call/);
    assert.ok(elapsed < 1_500, `the call failed ${Math.round(elapsed)} ms after the kill`);

    const next = await shell(client, "pwd");
    assert.equal(next.isError, false, next.text);
    assert.match(next.text, new RegExp(`^${root.path}\\n`));
    const replacement = childFor(ahma, root.path);
    assert.ok(replacement && replacement !== child);
  } finally {
    await client.close();
  }
});

Deno.test("--session-isolation: a client that vanishes leaves no child after the idle timeout", async () => {
  await using home = await makeTempWorkspace();
  await using root = await makeTempWorkspace("ahma_root_");
  await using ahma = await startIsolated(home, ["--idle-timeout", "1"]);
  const { client } = await ahma.connect({ roots: [root.path] });
  await shell(client, "true");
  const child = childFor(ahma, root.path);
  assert.ok(child);
  // Closing the client drops its connections without a DELETE, like a crashed client.
  await client.close();
  await waitUntil(() => isGone(child), "the idle session's child to end", 10_000);
  await waitForChildCount(ahma, 0);
});

Deno.test("--session-isolation: a client without roots gets a clear error", async () => {
  await using home = await makeTempWorkspace();
  await using ahma = await startIsolated(home);
  const { client } = await ahma.connect();
  try {
    assert.deepEqual(await client.ping(), {});
    await assert.rejects(client.listTools(), /did not declare the roots capability/);
    assert.equal(await childCount(ahma), 0);
  } finally {
    await client.close();
  }
});

Deno.test("--session-isolation: stopping the server ends every child", async () => {
  await using home = await makeTempWorkspace();
  await using rootA = await makeTempWorkspace("ahma_root_a_");
  await using rootB = await makeTempWorkspace("ahma_root_b_");
  await using ahma = await startIsolated(home);
  const a = await ahma.connect({ roots: [rootA.path] });
  const b = await ahma.connect({ roots: [rootB.path] });
  await shell(a.client, "true");
  await b.client.callTool({
    name: "sandboxed_shell",
    arguments: { command: "sleep 30", execution_mode: "async" },
  });
  const everything = descendantsOf(ahma.serverPid);
  assert.ok(everything.length >= 3, "two children and a background command");
  await a.client.close();
  await b.client.close();
  const status = await ahma.stop();
  assert.equal(status.code, 0, ahma.stderr());
  for (const pid of [ahma.serverPid, ...everything]) assert.ok(isGone(pid), `pid ${pid} survived`);
});
