// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import type { EventStore } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** Events one session keeps for clients resuming a stream with `Last-Event-ID`. */
export const DEFAULT_EVENT_STORE_LIMIT = 1_000;

/**
 * One session's SSE events in memory, for resuming a broken stream (`Last-Event-ID`). Keeps the
 * newest `limit` events; a client resuming from an event already dropped is refused by the SDK.
 */
export class BoundedEventStore implements EventStore {
  readonly #events = new Map<string, { streamId: string; message: JSONRPCMessage }>();
  readonly #limit: number;
  #nextId = 1;

  constructor(limit: number = DEFAULT_EVENT_STORE_LIMIT) {
    if (!(limit >= 1)) throw new RangeError(`Cannot keep ${limit} events: keep 1 or more`);
    this.#limit = limit;
  }

  /** Number of events kept. */
  get size(): number {
    return this.#events.size;
  }

  /** Stores an event and returns its id; drops the oldest beyond the limit. */
  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = String(this.#nextId++);
    this.#events.set(id, { streamId, message });
    for (const oldest of this.#events.keys()) {
      if (this.#events.size <= this.#limit) break;
      this.#events.delete(oldest);
    }
    return Promise.resolve(id);
  }

  /** The stream an event belongs to, if it is still kept. */
  getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return Promise.resolve(this.#events.get(eventId)?.streamId);
  }

  /** Sends the events of the same stream that followed `lastEventId`; returns the stream id. */
  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const streamId = this.#events.get(lastEventId)?.streamId;
    if (streamId === undefined) return "";
    let after = false;
    for (const [id, event] of [...this.#events]) {
      if (id === lastEventId) after = true;
      // Priming events store `{}` only to carry an id; replaying one would be an invalid message.
      else if (after && event.streamId === streamId && "jsonrpc" in event.message) {
        await send(id, event.message);
      }
    }
    return streamId;
  }
}
