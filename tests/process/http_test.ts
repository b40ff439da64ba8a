import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { makeTempWorkspace, type TempWorkspace } from "../harness/temp_workspace.ts";
import { FIXTURE_TOOLS } from "../harness/repository.ts";
import { ahmaCommand, resultText } from "../harness/ahma_process.ts";
import { ahmaDescendants, type AhmaHttp, startAhmaHttp } from "../harness/ahma_http.ts";
import { isGone } from "../harness/process_state.ts";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "raw-http-test", version: "0.0.0" },
  },
};

const POST_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
};

async function startOn(workspace: TempWorkspace, extra: string[] = []): Promise<AhmaHttp> {
  return await startAhmaHttp([
    "--tools-dir",
    FIXTURE_TOOLS,
    "--sandbox-scope",
    workspace.path,
    ...extra,
  ]);
}

/** POSTs one JSON-RPC message and returns the status, session id and body text. */
async function post(
  url: URL | string,
  message: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; sessionId: string | null; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...POST_HEADERS, ...headers },
    body: JSON.stringify(message),
  });
  return {
    status: response.status,
    sessionId: response.headers.get("mcp-session-id"),
    text: await response.text(),
  };
}

async function health(ahma: AhmaHttp): Promise<Record<string, unknown>> {
  const response = await fetch(`${ahma.origin}/health`);
  assert.equal(response.status, 200);
  return await response.json();
}

Deno.test("ahma --mode http: Streamable HTTP and legacy SSE clients list and call tools", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startOn(workspace);
  const { client } = await ahma.connect();
  const legacy = await ahma.connectLegacy();
  try {
    for (const each of [client, legacy]) {
      const { tools } = await each.listTools();
      assert.ok(tools.some((tool) => tool.name === "sandboxed_shell"));
      assert.ok(tools.some((tool) => tool.name === "echo"));
      const shell = await each.callTool({
        name: "sandboxed_shell",
        arguments: { command: "echo hi; pwd" },
      });
      assert.equal(shell.isError, false);
      assert.match(resultText(shell), new RegExp(`^hi\\n${workspace.path}\\n`));
    }
    const report = await health(ahma);
    assert.equal(report.status, "ok");
    assert.equal(report.sessions, 2);
    assert.equal(report.children, 0);
    assert.equal(typeof report.uptime_seconds, "number");
  } finally {
    await client.close();
    await legacy.close();
  }
});

Deno.test("ahma --mode http: a background result arrives as a log message on the GET stream", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startOn(workspace);
  const { client } = await ahma.connect();
  const messages: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    messages.push(String(notification.params.data));
  });
  try {
    const started = await client.callTool({
      name: "sandboxed_shell",
      arguments: { command: "sleep 0.3; echo from-the-background", execution_mode: "async" },
    });
    assert.match(resultText(started), /Started op_\d+ in the background/);
    for (let i = 0; i < 100 && messages.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.match(messages.join("\n"), /Finished in the background[\s\S]*from-the-background/);
  } finally {
    await client.close();
  }
});

Deno.test("ahma --mode http: session ids are checked (400 missing, 404 unknown, 404 after DELETE)", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startOn(workspace);
  const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
  const missing = await post(ahma.mcpUrl, ping);
  assert.equal(missing.status, 400);
  assert.match(missing.text, /Mcp-Session-Id header is required/);
  const unknown = await post(ahma.mcpUrl, ping, { "Mcp-Session-Id": crypto.randomUUID() });
  assert.equal(unknown.status, 404);

  const opened = await post(ahma.mcpUrl, INITIALIZE);
  assert.equal(opened.status, 200);
  const sessionId = opened.sessionId;
  assert.ok(sessionId);
  const session = { "Mcp-Session-Id": sessionId, "Mcp-Protocol-Version": "2025-11-25" };
  const alive = await post(ahma.mcpUrl, ping, session);
  assert.equal(alive.status, 200);
  assert.match(alive.text, /"result":\{\}/);
  assert.equal((await health(ahma)).sessions, 1);

  const deleted = await fetch(ahma.mcpUrl, { method: "DELETE", headers: session });
  await deleted.body?.cancel();
  assert.equal(deleted.status, 200);
  const reused = await post(ahma.mcpUrl, ping, session);
  assert.equal(reused.status, 404);
  assert.equal((await health(ahma)).sessions, 0);
});

/** Sends a GET with a chosen Host header over a raw connection; returns the response head. */
async function rawGet(ahma: AhmaHttp, path: string, host: string): Promise<string> {
  const { port } = new URL(ahma.origin);
  using connection = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
  const request = `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
  await connection.write(new TextEncoder().encode(request));
  const buffer = new Uint8Array(4096);
  const read = await connection.read(buffer);
  return new TextDecoder().decode(buffer.subarray(0, read ?? 0));
}

Deno.test("ahma --mode http: a foreign Origin or Host is refused with 403", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startOn(workspace);
  const evilOrigin = await post(ahma.mcpUrl, INITIALIZE, { Origin: "http://evil.example.com" });
  assert.equal(evilOrigin.status, 403);
  assert.match(evilOrigin.text, /Origin/);
  // fetch() keeps its own Host header, so a rebinding page's request is written by hand.
  assert.match(await rawGet(ahma, "/health", "evil.example.com"), /^HTTP\/1\.1 403/);
  assert.match(await rawGet(ahma, "/health", "localhost:1234"), /^HTTP\/1\.1 200/);
  const local = await post(ahma.mcpUrl, INITIALIZE, { Origin: ahma.origin });
  assert.equal(local.status, 200);
  assert.equal((await health(ahma)).sessions, 1);
});

Deno.test("ahma --mode http: a body over the bound gets 413 and opens no session", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startOn(workspace);
  const huge = { ...INITIALIZE, params: { ...INITIALIZE.params, padding: "x".repeat(5_000_000) } };
  const refused = await post(ahma.mcpUrl, huge);
  assert.equal(refused.status, 413);
  assert.equal((await health(ahma)).sessions, 0);
});

Deno.test("ahma --mode http --auth-token: every request needs the bearer token (401)", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startOn(workspace, ["--auth-token", "s3cret-token"]);
  const bare = await fetch(`${ahma.origin}/health`);
  await bare.body?.cancel();
  assert.equal(bare.status, 401);
  assert.match(bare.headers.get("www-authenticate") ?? "", /^Bearer/);
  const wrong = await post(ahma.mcpUrl, INITIALIZE, { Authorization: "Bearer s3cret-tokem" });
  assert.equal(wrong.status, 401);
  const { client } = await ahma.connect({ headers: { Authorization: "Bearer s3cret-token" } });
  try {
    const result = await client.callTool({
      name: "sandboxed_shell",
      arguments: { command: "echo ok" },
    });
    assert.match(resultText(result), /^ok\n/);
  } finally {
    await client.close();
  }
});

Deno.test("ahma --mode http takes its token from AHMA_AUTH_TOKEN", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startAhmaHttp(["--sandbox-scope", workspace.path], {
    env: { AHMA_AUTH_TOKEN: "from-env" },
  });
  const bare = await fetch(`${ahma.origin}/health`);
  await bare.body?.cancel();
  assert.equal(bare.status, 401);
  const good = await fetch(`${ahma.origin}/health`, {
    headers: { Authorization: "Bearer from-env" },
  });
  assert.equal(good.status, 200);
  assert.equal((await good.json()).status, "ok");
});

Deno.test("ahma --mode http refuses a non-loopback bind without a token", async () => {
  await using workspace = await makeTempWorkspace();
  await assert.rejects(
    startAhmaHttp(["--sandbox-scope", workspace.path, "--host", "0.0.0.0"]),
    /Cannot listen on "0\.0\.0\.0" without a token[\s\S]*--auth-token/,
  );
});

Deno.test("ahma --mode http leaves no process behind once stopped", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startOn(workspace);
  const { client } = await ahma.connect();
  await client.callTool({
    name: "sandboxed_shell",
    arguments: { command: "sleep 30", execution_mode: "async" },
  });
  const running = ahmaDescendants(ahma);
  assert.ok(running.length > 0, "the background command runs below ahma");
  await client.close();
  const status = await ahma.stop();
  assert.equal(status.code, 0, ahma.stderr());
  for (const pid of [ahma.serverPid, ...running]) assert.ok(isGone(pid), `pid ${pid} survived`);
});

Deno.test("ahma --mode http refuses a port that is not one", async () => {
  const { command, args } = ahmaCommand(["--mode", "http", "--port", "70000"]);
  const output = await new Deno.Command(command, { args, stdin: "null" }).output();
  assert.equal(output.code, 2);
  assert.match(new TextDecoder().decode(output.stderr), /Cannot use --port "70000"/);
});
