import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/sdk/client";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";
import { fixtureArgs } from "../harness/repository.ts";
import { resultText } from "../harness/ahma_process.ts";
import { startAhmaHttp } from "../harness/ahma_http.ts";

const SESSIONS = 8;
const CALLS_PER_SESSION = 200;
/** Calls each session keeps in flight at once. */
const IN_FLIGHT = 8;

/** Makes `count` echo calls, `IN_FLIGHT` at a time; returns the tokens whose answer was wrong. */
async function echoMany(client: Client, session: number, count: number): Promise<string[]> {
  const wrong: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const token = `s${session}-c${next++}-${crypto.randomUUID()}`;
      const result = await client.callTool({
        name: "echo",
        arguments: { format: "%s\\n", text: token },
      });
      if (!resultText(result).startsWith(`--text\n${token}\n[exit code 0`)) wrong.push(token);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return wrong;
}

Deno.test(`ahma --mode http: ${SESSIONS} sessions x ${CALLS_PER_SESSION} calls, none lost or crossed`, async () => {
  await using workspace = await makeTempWorkspace();
  await using ahma = await startAhmaHttp(fixtureArgs(workspace.path));
  const clients = await Promise.all(
    Array.from({ length: SESSIONS }, (_, i) => ahma.connect({ name: `client-${i}` })),
  );
  try {
    const started = performance.now();
    const wrong = await Promise.all(
      clients.map(({ client }, session) => echoMany(client, session, CALLS_PER_SESSION)),
    );
    const seconds = (performance.now() - started) / 1000;
    assert.deepEqual(wrong.flat(), []);
    // Generous: 1,600 sandboxed commands on 2 shared cores.
    assert.ok(seconds < 240, `took ${seconds.toFixed(1)} s`);
  } finally {
    await Promise.all(clients.map(({ client }) => client.close()));
  }
});
