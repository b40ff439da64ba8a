import assert from "node:assert/strict";
import { type AhmaSession, resultText, startAhma } from "../harness/ahma_process.ts";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";
import { listenOnLoopback, listenOnUnixSocket, startHostSleeper } from "../harness/host_probe.ts";

/** Runs a command line through `sandboxed_shell`; returns its rendered output. */
async function shell(ahma: AhmaSession, command: string): Promise<string> {
  const result = await ahma.client.callTool({ name: "sandboxed_shell", arguments: { command } });
  return resultText(result);
}

/** Prints every visible process's command line, one per line, without needing `ps`. */
const LIST_PROCESSES = "for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < \"$f\"; echo; done";

/** Sends a line to the host's loopback with bash's /dev/tcp: no curl or nc needed. */
function sendOverTcp(port: number, text: string): string {
  return `bash -c 'echo ${text} > /dev/tcp/127.0.0.1/${port}'`;
}

Deno.test("sandboxed_shell cannot see or signal host processes", async () => {
  await using workspace = await makeTempWorkspace();
  await using sleeper = startHostSleeper();
  await using ahma = await startAhma(["--sandbox-scope", workspace.path]);
  const listing = await shell(ahma, LIST_PROCESSES);
  // The control: the listing works and shows the sandbox's own (pooled) shell.
  assert.match(listing, /sh -s/);
  assert.ok(!listing.includes(sleeper.marker), listing);
  const kill = await shell(ahma, `kill -9 ${sleeper.pid}`);
  assert.doesNotMatch(kill, /\[exit code 0 /);
  assert.ok(sleeper.alive());
});

Deno.test("sandboxed_shell under --no-network cannot reach a host loopback listener", async () => {
  await using workspace = await makeTempWorkspace();
  await using listener = listenOnLoopback();
  await using ahma = await startAhma(["--sandbox-scope", workspace.path, "--no-network"]);
  const text = await shell(ahma, sendOverTcp(listener.port, "leaked"));
  assert.match(text, /Connection refused|Network is unreachable/);
  assert.doesNotMatch(text, /\[exit code 0 /);
  assert.equal(listener.received(), "");
});

Deno.test("sandboxed_shell without --no-network reaches a host loopback listener", async () => {
  await using workspace = await makeTempWorkspace();
  await using listener = listenOnLoopback();
  await using ahma = await startAhma(["--sandbox-scope", workspace.path]);
  assert.match(await shell(ahma, sendOverTcp(listener.port, "reached")), /\[exit code 0 /);
  const deadline = Date.now() + 10_000;
  while (listener.received() === "" && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.equal(listener.received(), "reached\n");
});

const RUN_SOCKET = `/run/ahma_test_${crypto.randomUUID()}.sock`;
const runWritable = await canCreateIn("/run");

Deno.test({
  name: "sandboxed_shell cannot see a host daemon's socket under /run",
  ignore: !runWritable,
  async fn() {
    await using workspace = await makeTempWorkspace();
    await using daemon = listenOnUnixSocket(RUN_SOCKET);
    assert.ok(daemon);
    await using ahma = await startAhma(["--sandbox-scope", workspace.path]);
    const text = await shell(ahma, `test -S ${RUN_SOCKET} || test -S /var${RUN_SOCKET}`);
    assert.match(text, /\[exit code 1 /);
  },
});

async function canCreateIn(directory: string): Promise<boolean> {
  try {
    const probe = await Deno.makeTempFile({ dir: directory, prefix: "ahma_test_" });
    await Deno.remove(probe);
    return true;
  } catch {
    return false;
  }
}
