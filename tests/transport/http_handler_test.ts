import assert from "node:assert/strict";
import { Server } from "@modelcontextprotocol/sdk/server";
import { McpHttpHandler, type SessionOpener } from "../../src/transport/mod.ts";

const ORIGIN = "http://127.0.0.1:3000";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "handler-test", version: "0.0.0" },
  },
};

/** Real SDK servers (with logging) as session backends; each one made is kept in `servers`. */
function sdkServers(servers: Server[], closed: string[] = []): SessionOpener {
  return (context) => {
    const server = new Server({ name: "test", version: "0.0.0" }, {
      capabilities: { logging: {} },
    });
    servers.push(server);
    return {
      connect: (transport) => server.connect(transport),
      async close() {
        closed.push(context.id);
        await server.close();
      },
    };
  };
}

function post(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}/mcp`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

async function initialize(handler: McpHttpHandler): Promise<string> {
  const response = await handler.fetch(post(INITIALIZE));
  assert.equal(response.status, 200);
  await response.text();
  const id = response.headers.get("mcp-session-id");
  assert.ok(id);
  return id;
}

async function health(handler: McpHttpHandler): Promise<Record<string, unknown>> {
  return await (await handler.fetch(new Request(`${ORIGIN}/health`))).json();
}

/** Reads SSE events (id and data) until `count` have come. */
async function readEvents(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  count: number,
): Promise<Array<{ id: string | undefined; data: string }>> {
  const events: Array<{ id: string | undefined; data: string }> = [];
  const decoder = new TextDecoder();
  let buffer = "";
  while (events.length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const field = (name: string) =>
        block.split("\n").find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
      const data = field("data");
      if (data !== undefined) events.push({ id: field("id"), data });
    }
  }
  return events;
}

Deno.test("McpHttpHandler refuses a session beyond maxSessions with 503", async () => {
  const servers: Server[] = [];
  await using handler = new McpHttpHandler(sdkServers(servers), { maxSessions: 2 });
  await initialize(handler);
  await initialize(handler);
  const refused = await handler.fetch(post(INITIALIZE));
  assert.equal(refused.status, 503);
  assert.equal(refused.headers.get("retry-after"), "5");
  await refused.body?.cancel();
  assert.equal((await health(handler)).sessions, 2);
  assert.equal(servers.length, 2);
});

Deno.test("McpHttpHandler closes a session once it has been idle past the timeout", async () => {
  const closed: string[] = [];
  await using handler = new McpHttpHandler(sdkServers([], closed), { idleTimeoutSeconds: 0.2 });
  const id = await initialize(handler);
  for (let i = 0; i < 50 && closed.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.deepEqual(closed, [id]);
  const gone = await handler.fetch(post({ jsonrpc: "2.0", id: 2, method: "ping" }, {
    "Mcp-Session-Id": id,
  }));
  assert.equal(gone.status, 404);
  await gone.body?.cancel();
});

Deno.test("McpHttpHandler keeps a session with an open stream, however long it is quiet", async () => {
  const closed: string[] = [];
  await using handler = new McpHttpHandler(sdkServers([], closed), { idleTimeoutSeconds: 0.2 });
  const id = await initialize(handler);
  const stream = await handler.fetch(
    new Request(`${ORIGIN}/mcp`, {
      headers: { Accept: "text/event-stream", "Mcp-Session-Id": id },
    }),
  );
  assert.equal(stream.status, 200);
  await new Promise((resolve) => setTimeout(resolve, 600));
  assert.deepEqual(closed, []);
  await stream.body?.cancel();
  for (let i = 0; i < 50 && closed.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.deepEqual(closed, [id]);
});

Deno.test("McpHttpHandler replays what a broken GET stream missed (Last-Event-ID)", async () => {
  const servers: Server[] = [];
  await using handler = new McpHttpHandler(sdkServers(servers));
  const id = await initialize(handler);
  const server = servers[0];
  assert.ok(server);
  const headers = { Accept: "text/event-stream", "Mcp-Session-Id": id };
  const first = await handler.fetch(new Request(`${ORIGIN}/mcp`, { headers }));
  const reader = first.body?.getReader();
  assert.ok(reader);
  await server.sendLoggingMessage({ level: "info", data: "seen" });
  const [seen] = await readEvents(reader, 1);
  assert.match(seen?.data ?? "", /"seen"/);
  await reader.cancel();

  await server.sendLoggingMessage({ level: "info", data: "missed" });
  const resumed = await handler.fetch(
    new Request(`${ORIGIN}/mcp`, { headers: { ...headers, "Last-Event-ID": seen?.id ?? "" } }),
  );
  assert.equal(resumed.status, 200);
  const resumedReader = resumed.body?.getReader();
  assert.ok(resumedReader);
  const [missed] = await readEvents(resumedReader, 1);
  assert.match(missed?.data ?? "", /"missed"/);
  await resumedReader.cancel();
});

Deno.test("McpHttpHandler answers unknown paths, sessions and methods plainly", async () => {
  await using handler = new McpHttpHandler(sdkServers([]));
  const cases: Array<[Request, number]> = [
    [new Request(`${ORIGIN}/nowhere`), 404],
    [new Request(`${ORIGIN}/messages?sessionId=nope`, { method: "POST", body: "{}" }), 404],
    [new Request(`${ORIGIN}/messages`, { method: "POST", body: "{}" }), 400],
    [new Request(`${ORIGIN}/mcp`, { headers: { Accept: "text/event-stream" } }), 400],
    [new Request(`${ORIGIN}/mcp`, { method: "DELETE" }), 400],
    [new Request(`${ORIGIN}/mcp`, { method: "POST", body: "{not json" }), 400],
  ];
  for (const [request, status] of cases) {
    const response = await handler.fetch(request);
    await response.body?.cancel();
    assert.equal(response.status, status, `${request.method} ${request.url}`);
  }
  const id = await initialize(handler);
  const put = await handler.fetch(
    new Request(`${ORIGIN}/mcp`, { method: "PUT", headers: { "Mcp-Session-Id": id } }),
  );
  await put.body?.cancel();
  assert.equal(put.status, 405);
});
