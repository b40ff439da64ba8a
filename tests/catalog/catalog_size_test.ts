import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's "./*" export maps "x.js" to a missing "x.js.d.ts"; this names the real types.
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { loadToolCatalog, readToolDirectory } from "../../src/config/mod.ts";
import { ahmaCommand } from "../harness/ahma_process.ts";
import { REPOSITORY_ROOT } from "../harness/repository.ts";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";

const BUNDLED_TOOLS = join(REPOSITORY_ROOT, "tools");

/**
 * Characters of JSON the whole catalog's tools/list may take. Every client sends the list to
 * its model on every turn, so each tool and option spends context before any work is done.
 */
const CATALOG_BUDGET = 40_000;

/**
 * Writes a do-nothing executable for every command the catalog checks for, so ahma leaves no
 * tool out as not installed and the listing is the whole catalog on any machine.
 */
async function writeCommandStubs(directory: string): Promise<void> {
  const { files } = loadToolCatalog(await readToolDirectory(BUNDLED_TOOLS));
  for (const file of files) {
    const command = file.tool.availability_check?.command ?? file.tool.command;
    if (command === "sequence") continue;
    await Deno.writeTextFile(join(directory, command), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  }
}

Deno.test("tools/list of the whole bundled catalog stays under 40 KB of JSON", async () => {
  await using workspace = await makeTempWorkspace();
  const stubs = join(workspace.path, "stubs");
  await Deno.mkdir(stubs);
  await writeCommandStubs(stubs);
  const { command, args } = ahmaCommand([
    "--mode",
    "stdio",
    "--tools-dir",
    BUNDLED_TOOLS,
    "--sandbox-scope",
    workspace.path,
  ]);
  // startAhma passes this process's environment as is; the stubs need a PATH of their own.
  const path = `${stubs}:${Deno.env.get("PATH") ?? ""}`;
  const transport = new StdioClientTransport({
    command,
    args,
    stderr: "pipe",
    env: { ...Deno.env.toObject(), NO_COLOR: "1", PATH: path },
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    stderr += new TextDecoder().decode(chunk);
  });
  const client = new Client({ name: "catalog-size-test", version: "0.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const { files } = loadToolCatalog(await readToolDirectory(BUNDLED_TOOLS));
    for (const file of files) {
      const listed = tools.some((tool) =>
        tool.name === file.name || tool.name.startsWith(`${file.name}_`)
      );
      assert.ok(listed, `no tool of "${file.name}" is listed; ahma said:\n${stderr}`);
    }
    const size = JSON.stringify(tools).length;
    const largest = tools
      .map((tool) => ({ name: tool.name, size: JSON.stringify(tool).length }))
      .sort((a, b) => b.size - a.size)
      .slice(0, 10)
      .map((tool) => `${tool.name} ${tool.size}`)
      .join(", ");
    assert.ok(
      size < CATALOG_BUDGET,
      `tools/list of ${tools.length} tools is ${size} characters; trim descriptions or options of the largest: ${largest}`,
    );
  } finally {
    await client.close();
  }
});
