import { startAhmaHttp } from "../harness/ahma_http.ts";
import { timeSequential } from "./floors.ts";
import { summarize, type Summary } from "./statistics.ts";

/** What the HTTP part of the benchmark measured. */
export interface HttpFigures {
  /** `sandboxed_shell` `echo hello` over Streamable HTTP, sequential. */
  call: Summary;
  /** Milliseconds from connecting a new isolated session to its first completed call, p50. */
  isolatedSessionMs: number;
}

/** Measures calls over HTTP and the time to a usable isolated session. */
export async function measureHttp(workspace: string, calls: number): Promise<HttpFigures> {
  const echo = { name: "sandboxed_shell", arguments: { command: "echo hello" } };
  let call: Summary;
  {
    await using ahma = await startAhmaHttp(["--sandbox-scope", workspace]);
    const { client } = await ahma.connect();
    await timeSequential(20, () => client.callTool(echo));
    call = summarize(await timeSequential(calls, () => client.callTool(echo)));
    await client.close();
  }
  await using isolated = await startAhmaHttp(["--session-isolation"]);
  const sessions = await timeSequential(5, async () => {
    const { client } = await isolated.connect({ roots: [workspace] });
    await client.callTool(echo);
    await client.close();
  });
  return { call, isolatedSessionMs: summarize(sessions).p50 };
}
