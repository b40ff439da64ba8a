import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";
import { fixtureArgs } from "../harness/repository.ts";
import { ahmaCommand, resultText, startAhma } from "../harness/ahma_process.ts";
import { isGone, readPidFile } from "../harness/process_state.ts";
import { LineReader, type Message, parseMessage } from "../harness/json_lines.ts";

function shell(command: string, extra: Record<string, unknown> = {}) {
  return { name: "sandboxed_shell", arguments: { command, ...extra } };
}

function operationIdOf(result: unknown): string {
  const structured =
    (result as { structuredContent?: { operation_id?: string } }).structuredContent;
  assert.ok(structured?.operation_id, `no operation_id in ${JSON.stringify(result)}`);
  return structured.operation_id;
}

Deno.test("background call answers at once, then await returns its result", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startAhma(fixtureArgs(workspace.path));
  const started = performance.now();
  const result = await ahma.client.callTool(
    shell("sleep 1; echo finished", { execution_mode: "async" }),
  );
  const elapsed = performance.now() - started;
  assert.ok(elapsed < 500, `start took ${elapsed} ms`);
  assert.match(resultText(result), /Started op_\d+ in the background/);
  const id = operationIdOf(result);
  const status = await ahma.client.callTool({ name: "status", arguments: { operation_id: id } });
  assert.match(resultText(status), new RegExp(`${id}\\s+running`));
  const awaited = await ahma.client.callTool({ name: "await", arguments: { operation_ids: [id] } });
  assert.match(resultText(awaited), /finished\n\[exit code 0/);
  const after = await ahma.client.callTool({ name: "status", arguments: {} });
  assert.match(resultText(after), new RegExp(`${id}\\s+completed .* exit 0`));
});

Deno.test("a finished background result is noted at the start of the next response and logged", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startAhma(fixtureArgs(workspace.path));
  const messages: string[] = [];
  ahma.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    messages.push(String(notification.params.data));
  });
  const result = await ahma.client.callTool(
    shell("echo background-output", { execution_mode: "async" }),
  );
  const id = operationIdOf(result);
  for (let i = 0; i < 50 && messages.length === 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.match(messages.join("\n"), new RegExp(`${id}.*completed[\\s\\S]*background-output`));
  const next = await ahma.client.callTool(shell("echo next"));
  const first = (next.content as Array<{ text: string }>)[0]?.text ?? "";
  assert.match(first, new RegExp(`^\\[${id} finished in the background`));
  assert.match(first, /background-output/);
  const again = await ahma.client.callTool(shell("echo again"));
  assert.doesNotMatch(resultText(again), /finished in the background/);
});

Deno.test("cancel kills a background operation's grandchild within 2 s", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startAhma(fixtureArgs(workspace.path, "--no-sandbox"));
  const pidFile = `${workspace.path}/grandchild.pid`;
  const result = await ahma.client.callTool(
    shell(`sh -c 'sleep 300 & echo $! > ${pidFile}; wait' & wait`, { execution_mode: "async" }),
  );
  const id = operationIdOf(result);
  const pid = await readPidFile(pidFile);
  assert.ok(pid > 0 && !isGone(pid), "grandchild should be running");
  const started = performance.now();
  const cancelled = await ahma.client.callTool({
    name: "cancel",
    arguments: { operation_id: id, reason: "test" },
  });
  assert.match(resultText(cancelled), /cancelled/);
  assert.ok(performance.now() - started < 2_000);
  assert.ok(isGone(pid), "grandchild should be gone");
});

Deno.test("20 concurrent background operations are all delivered by await", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startAhma(fixtureArgs(workspace.path));
  const ids = await Promise.all(
    Array.from(
      { length: 20 },
      async (_, i) =>
        operationIdOf(
          await ahma.client.callTool(
            shell(`sleep 0.$((RANDOM % 5)); echo result-${i}`, { execution_mode: "async" }),
          ),
        ),
    ),
  );
  const awaited = resultText(await ahma.client.callTool({ name: "await", arguments: {} }));
  for (const [i, id] of ids.entries()) {
    assert.match(awaited, new RegExp(`${id} sandboxed_shell: completed\\nresult-${i}\\n`));
  }
  assert.doesNotMatch(awaited, /finished in the background/);
});

Deno.test("--async runs calls in the background but not a force_synchronous tool", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startAhma(fixtureArgs(workspace.path, "--async"));
  const background = await ahma.client.callTool(shell("echo hi"));
  assert.match(resultText(background), /Started op_\d+ in the background/);
  const forced = await ahma.client.callTool({
    name: "forced",
    arguments: { "c": "echo forced", execution_mode: "async" },
  });
  assert.match(resultText(forced), /^forced\n\[exit code 0/m);
});

Deno.test("output over the cap is cut to head and tail and kept whole as a resource", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startAhma(fixtureArgs(workspace.path));
  const result = await ahma.client.callTool(shell("seq 1 100000"));
  const text = resultText(result);
  assert.ok(text.length < 70_000, `response is ${text.length} characters`);
  assert.match(text, /^1\n2\n3\n/);
  assert.match(text, /\[\.\.\. \d+ characters cut \.\.\.\]/);
  assert.match(text, /99999\n100000\n/);
  const { resources } = await ahma.client.listResources();
  assert.equal(resources.length, 1);
  const read = await ahma.client.readResource({ uri: resources[0]?.uri ?? "" });
  const whole = (read.contents[0] as { text: string }).text;
  assert.equal(whole.split("\n").length, 100_001);
});

Deno.test("a task-augmented tools/call is served through tasks/get and tasks/result", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startAhma(fixtureArgs(workspace.path));
  const created = await ahma.client.request(
    {
      method: "tools/call",
      params: { ...shell("sleep 0.3; echo from-task"), task: { ttl: 60_000 } },
    },
    CreateTaskResultSchema,
  );
  const taskId = created.task.taskId;
  const listed = await ahma.client.request(
    { method: "tasks/list", params: {} },
    (await import("@modelcontextprotocol/sdk/types.js")).ListTasksResultSchema,
  );
  assert.ok(listed.tasks.some((task: { taskId: string }) => task.taskId === taskId));
  const result = await ahma.client.request(
    { method: "tasks/result", params: { taskId } },
    CallToolResultSchema,
  );
  assert.match(resultText(result), /from-task/);
  const task = await ahma.client.request(
    { method: "tasks/get", params: { taskId } },
    (await import("@modelcontextprotocol/sdk/types.js")).GetTaskResultSchema,
  );
  assert.equal(task.status, "completed");
});

Deno.test("notifications/cancelled for a sync call kills its command", async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startAhma(fixtureArgs(workspace.path, "--no-sandbox"));
  const pidFile = `${workspace.path}/child.pid`;
  const controller = new AbortController();
  const call = ahma.client.callTool(shell(`sleep 300 & echo $! > ${pidFile}; wait`), undefined, {
    signal: controller.signal,
  });
  const pid = await readPidFile(pidFile);
  assert.ok(pid > 0 && !isGone(pid));
  controller.abort();
  await assert.rejects(call);
  for (let i = 0; i < 20 && !isGone(pid); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(isGone(pid), "the cancelled call's process should be gone");
  // The client gives up at once; the server records the cancellation as it kills the command.
  let status = "";
  for (let i = 0; i < 20 && !/cancelled/.test(status); i++) {
    status = resultText(await ahma.client.callTool({ name: "status", arguments: {} }));
    if (!/cancelled/.test(status)) await new Promise((r) => setTimeout(r, 100));
  }
  assert.match(status, /op_1 +cancelled/);
});

Deno.test("a background call with a progressToken gets progress, the last one carrying the result", async () => {
  await using workspace = await makeTempWorkspace();
  const { command, args } = ahmaCommand(["--mode", "stdio", ...fixtureArgs(workspace.path)]);
  const child = new Deno.Command(command, { args, stdin: "piped", stdout: "piped", stderr: "null" })
    .spawn();
  const writer = child.stdin.getWriter();
  const send = (message: unknown) =>
    writer.write(new TextEncoder().encode(`${JSON.stringify(message)}\n`));
  await send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    },
  });
  await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await send({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: {
      name: "sandboxed_shell",
      arguments: {
        command: "for i in 1 2 3; do echo line-$i; sleep 0.3; done",
        execution_mode: "async",
      },
      _meta: { progressToken: "p1" },
    },
  });
  const stdout = new LineReader(child.stdout);
  const isProgress = (message: Message) => message.method === "notifications/progress";
  await stdout.until((message) =>
    isProgress(message) && (message.params as { total?: number }).total !== undefined
  );
  await writer.close();
  await stdout.cancel();
  await child.status;
  const progress = stdout.lines.map(parseMessage).filter((m) => m !== undefined && isProgress(m))
    .map((message) => message?.params as { progress: number; total?: number; message?: string });
  const last = progress.at(-1);
  assert.ok(last?.total !== undefined && last.progress === last.total);
  assert.match(last.message ?? "", /line-1\nline-2\nline-3\n\[exit code 0/);
  const values = progress.map((p) => p.progress);
  assert.deepEqual(values, [...values].sort((a, b) => a - b), "progress only grows");
});
