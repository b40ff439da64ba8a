import assert from "node:assert/strict";
import { ahmaCommand } from "../harness/ahma_process.ts";
import { LineReader, parseMessage as parse } from "../harness/json_lines.ts";
import { fixtureArgs } from "../harness/repository.ts";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";

const encoder = new TextEncoder();

Deno.test("ahma --mode stdio survives malformed JSON-RPC and writes only JSON-RPC to stdout", async () => {
  await using workspace = await makeTempWorkspace();
  const { command, args } = ahmaCommand(["--mode", "stdio", ...fixtureArgs(workspace.path)]);
  const child = new Deno.Command(command, {
    args,
    cwd: workspace.path,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const stderr = new Response(child.stderr).text();
  const stdout = new LineReader(child.stdout);
  const writer = child.stdin.getWriter();
  const send = (line: string) => writer.write(encoder.encode(`${line}\n`));
  try {
    await send("this is not json");
    await send("{ broken");
    await send(`{"hello":"world"}`);
    await send("");
    await send(JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "0" },
      },
    }));
    const initialized = await stdout.response(1);
    assert.equal((initialized.result as { serverInfo: { name: string } }).serverInfo.name, "ahma");
    await send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    await send("]]] more garbage [[[");
    await send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }));
    const listed = await stdout.response(2);
    const tools = (listed.result as { tools: Array<{ name: string }> }).tools;
    assert.ok(tools.some((tool) => tool.name === "echo"));
    await send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "no/such/method" }));
    assert.ok((await stdout.response(3)).error, "an unknown method is a JSON-RPC error");
    await send(JSON.stringify({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "sh_run", arguments: { c: "echo out-line; echo err-line >&2" } },
    }));
    const called = await stdout.response(4);
    assert.match(JSON.stringify(called.result), /out-line\\nerr-line/);
    await writer.close();
    const status = await child.status;
    await stdout.rest();
    assert.equal(status.code, 0, await stderr);
    assert.ok(stdout.lines.length >= 4);
    for (const line of stdout.lines) {
      assert.equal(parse(line)?.jsonrpc, "2.0", `not a JSON-RPC line on stdout: ${line}`);
    }
    assert.doesNotMatch(await stderr, /out-line/);
  } finally {
    clearTimeout(killer);
    await writer.close().catch(() => {});
    await child.status;
    await stderr;
  }
});
