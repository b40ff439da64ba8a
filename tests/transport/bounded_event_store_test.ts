import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { BoundedEventStore } from "../../src/transport/mod.ts";

function note(n: number): JSONRPCMessage {
  return { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: n } };
}

async function replay(store: BoundedEventStore, after: string) {
  const sent: Array<[string, JSONRPCMessage]> = [];
  const streamId = await store.replayEventsAfter(after, {
    send: (id, message) => {
      sent.push([id, message]);
      return Promise.resolve();
    },
  });
  return { streamId, sent };
}

Deno.test("BoundedEventStore replays the same stream's events after the last one seen", async () => {
  const store = new BoundedEventStore();
  const first = await store.storeEvent("a", note(1));
  await store.storeEvent("b", note(2));
  const third = await store.storeEvent("a", note(3));
  const fourth = await store.storeEvent("a", note(4));
  const { streamId, sent } = await replay(store, first);
  assert.equal(streamId, "a");
  assert.deepEqual(sent, [[third, note(3)], [fourth, note(4)]]);
  assert.equal(await store.getStreamIdForEventId(third), "a");
});

Deno.test("BoundedEventStore skips priming events when replaying", async () => {
  const store = new BoundedEventStore();
  // The SDK stores `{}` as a priming event: it carries an id, not a message.
  const priming = await store.storeEvent("a", {} as JSONRPCMessage);
  await store.storeEvent("a", {} as JSONRPCMessage);
  const real = await store.storeEvent("a", note(1));
  assert.deepEqual((await replay(store, priming)).sent, [[real, note(1)]]);
});

Deno.test("BoundedEventStore keeps only the newest events and forgets unknown ids", async () => {
  const store = new BoundedEventStore(3);
  const ids = [];
  for (let n = 0; n < 5; n++) ids.push(await store.storeEvent("a", note(n)));
  assert.equal(store.size, 3);
  assert.equal(await store.getStreamIdForEventId(ids[0] ?? ""), undefined);
  assert.deepEqual(await replay(store, ids[0] ?? ""), { streamId: "", sent: [] });
  assert.deepEqual((await replay(store, ids[2] ?? "")).sent.map(([id]) => id), ids.slice(3));
  assert.throws(() => new BoundedEventStore(0), RangeError);
});
