import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { loadToolCatalog, readToolDirectory } from "../../src/config/mod.ts";
import {
  BubblewrapSandbox,
  buildToolSpecs,
  Engine,
  SandboxScope,
  SpawnRunner,
} from "../../src/engine/mod.ts";
import { createAhmaSession } from "../../src/mcp/mod.ts";
import { resultText } from "../harness/ahma_process.ts";
import { FIXTURE_TOOLS } from "../harness/repository.ts";
import { makeTempWorkspace, type TempWorkspace } from "../harness/temp_workspace.ts";

/** An SDK client connected in memory to the server over the fixture tools. */
interface Connected extends AsyncDisposable {
  client: Client;
}

/** Builds the engine from the fixture tools, confined by bubblewrap to the workspace. */
async function connect(workspace: TempWorkspace): Promise<Connected> {
  const scope = await SandboxScope.create([workspace.path]);
  const catalog = loadToolCatalog(await readToolDirectory(FIXTURE_TOOLS));
  assert.deepEqual(catalog.problems, []);
  const runner = new SpawnRunner(new BubblewrapSandbox(scope));
  const engine = new Engine(buildToolSpecs(catalog.files), runner, scope);
  const session = createAhmaSession(engine, { serverInfo: { name: "ahma", version: "0.0.0" } });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "ahma-server-test", version: "0.0.0" });
  await Promise.all([session.server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    async [Symbol.asyncDispose]() {
      await client.close();
      await session.close();
    },
  };
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; text: string }> {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, text: resultText(result) };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

/** The names of a directory's entries. */
async function entryNames(path: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(path))).map((entry) => entry.name);
}

Deno.test("tools/list sends each fixture tool with its schema and annotations", async () => {
  await using workspace = await makeTempWorkspace();
  await using connected = await connect(workspace);
  const { tools } = await connected.client.listTools();
  const names = tools.map((tool) => tool.name);
  for (const name of ["echo", "sh_run", "sh_quick", "touch"]) {
    assert.ok(names.includes(name), `${name} missing from ${names.join(", ")}`);
  }
  const touch = tools.find((tool) => tool.name === "touch");
  assert.equal(touch?.description, "touch FILE...");
  assert.deepEqual(touch?.annotations, { destructiveHint: false, idempotentHint: true });
  assert.deepEqual(touch?.inputSchema, {
    type: "object",
    properties: {
      file: {
        type: "array",
        items: { type: "string" },
        description: "Files to create (path in the workspace)",
      },
      working_directory: {
        type: "string",
        description: "Run here (in the workspace; default: its root)",
      },
      execution_mode: {
        type: "string",
        enum: ["sync", "async"],
        description: "async: return an operation_id at once",
      },
      timeout_seconds: {
        type: "number",
        exclusiveMinimum: 0,
        maximum: 86_400,
        description: "Kill after this many seconds",
      },
    },
    required: ["file"],
    additionalProperties: false,
  });
  const echo = tools.find((tool) => tool.name === "echo");
  assert.deepEqual(echo?.inputSchema.properties?.mode, {
    type: "string",
    description: "An enum",
    enum: ["fast", "slow"],
  });
  assert.equal(echo?.annotations, undefined);
});

Deno.test("tools/call returns a successful command's output with isError false", async () => {
  await using workspace = await makeTempWorkspace();
  await using connected = await connect(workspace);
  const result = await connected.client.callTool({
    name: "echo",
    arguments: { format: "%s\\n", text: "hello", count: 2 },
  });
  assert.equal(result.isError, false);
  assert.deepEqual((result.content as Array<{ type: string }>).map((part) => part.type), ["text"]);
  assert.match(resultText(result), /^--text\nhello\n--count\n2\n\[exit code 0 after \d+ ms\]$/);
});

Deno.test("tools/call returns a non-zero exit as isError true carrying the output", async () => {
  await using workspace = await makeTempWorkspace();
  await using connected = await connect(workspace);
  const { isError, text } = await call(connected.client, "sh_run", {
    c: "echo partial; echo complaint >&2; exit 4",
  });
  assert.equal(isError, true);
  assert.match(text, /^partial\ncomplaint\n\[exit code 4 after/);
});

Deno.test("tools/call refuses an argument of the wrong type, naming it", async () => {
  await using workspace = await makeTempWorkspace();
  await using connected = await connect(workspace);
  const { isError, text } = await call(connected.client, "echo", {
    format: "%s\\n",
    count: "three",
  });
  assert.equal(isError, true);
  assert.match(text, /^Cannot call "echo": argument "count" must be integer; fix the arguments/);
});

Deno.test("tools/call refuses an unknown argument, naming it, and runs nothing", async () => {
  await using workspace = await makeTempWorkspace();
  await using connected = await connect(workspace);
  const { isError, text } = await call(connected.client, "touch", { file: ["made"], bogus: 1 });
  assert.equal(isError, true);
  assert.match(text, /unknown argument "bogus"/);
  assert.equal(await exists(join(workspace.path, "made")), false);
});

Deno.test("tools/call refuses a call missing a required argument, naming it", async () => {
  await using workspace = await makeTempWorkspace();
  await using connected = await connect(workspace);
  const { isError, text } = await call(connected.client, "echo", { text: "x" });
  assert.equal(isError, true);
  assert.match(text, /missing required argument "format"/);
});

Deno.test("tools/call refuses a value outside an enum, listing the allowed ones", async () => {
  await using workspace = await makeTempWorkspace();
  await using connected = await connect(workspace);
  const { isError, text } = await call(connected.client, "echo", {
    format: "%s\\n",
    mode: "medium",
  });
  assert.equal(isError, true);
  assert.match(text, /argument "mode" must be one of "fast", "slow"/);
});

Deno.test("tools/call of an unknown tool is isError naming the tool", async () => {
  await using workspace = await makeTempWorkspace();
  await using connected = await connect(workspace);
  const { isError, text } = await call(connected.client, "no_such_tool", {});
  assert.equal(isError, true);
  assert.equal(text, 'Cannot call "no_such_tool": no such tool; list the tools and pick one');
});

Deno.test("tools/call refuses a path outside the scope before running anything", async () => {
  await using workspace = await makeTempWorkspace();
  await using outside = await makeTempWorkspace();
  await Deno.symlink(outside.path, join(workspace.path, "escape"));
  await using connected = await connect(workspace);
  for (const file of [join(outside.path, "abs"), "escape/via-link", "../x"]) {
    // "first" is inside: had the command run at all, it would exist.
    const { isError, text } = await call(connected.client, "touch", { file: ["first", file] });
    assert.equal(isError, true);
    assert.match(text, /^Cannot use "file": ".*" is outside the sandbox scope; pass a path inside/);
    assert.ok(text.includes(`"${file}"`));
  }
  assert.deepEqual(await entryNames(outside.path), []);
  assert.deepEqual(await entryNames(workspace.path), ["escape"]);
  const allowed = await call(connected.client, "touch", { file: ["first"] });
  assert.equal(allowed.isError, false, allowed.text);
  assert.equal(await exists(join(workspace.path, "first")), true);
});

Deno.test("tools/call runs in working_directory and refuses one outside the scope", async () => {
  await using workspace = await makeTempWorkspace();
  await using outside = await makeTempWorkspace();
  await Deno.mkdir(join(workspace.path, "sub"));
  await using connected = await connect(workspace);
  const inside = await call(connected.client, "touch", {
    file: ["made"],
    working_directory: "sub",
  });
  assert.equal(inside.isError, false, inside.text);
  assert.equal(await exists(join(workspace.path, "sub", "made")), true);
  const refused = await call(connected.client, "touch", {
    file: ["made"],
    working_directory: outside.path,
  });
  assert.equal(refused.isError, true);
  assert.match(refused.text, /Cannot use "working_directory"/);
  assert.deepEqual(await entryNames(outside.path), []);
});
