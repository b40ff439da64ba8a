import type { Server } from "@modelcontextprotocol/sdk/server";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type LoggingLevel,
  LoggingLevelSchema,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { throttleOutput } from "./output_throttle.ts";

/** What a call handler gets from the SDK. */
type RequestExtra = Parameters<Parameters<Server["setRequestHandler"]>[1]>[1];

/**
 * The least severe log level the client asked for with `logging/setLevel`; "info" until it asks.
 * It replaces the SDK's own handler, whose record is private, because the core must know whether
 * the client wants `debug` messages before it streams command output as them.
 */
export class ClientLogLevel {
  #level: LoggingLevel = "info";

  constructor(server: Server) {
    server.setRequestHandler(SetLevelRequestSchema, (request) => {
      this.#level = request.params.level;
      return {};
    });
  }

  /** True when the client wants messages of `level`. */
  wants(level: LoggingLevel): boolean {
    const order = LoggingLevelSchema.options;
    return order.indexOf(level) >= order.indexOf(this.#level);
  }
}

/**
 * Streams a sync call's output while it runs, on the call's own response stream: as
 * `notifications/progress` when the call carried a progressToken, and as `debug` log messages
 * when the client asked for debug logging; throttled by {@linkcode throttleOutput}. The result
 * still carries the whole output. Undefined when nobody listens.
 */
export function liveOutput(
  extra: RequestExtra,
  options: { debugLogging: boolean; logger: string },
): ((text: string) => void) | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined && !options.debugLogging) return undefined;
  return throttleOutput({ count: 0 }, (lines, message) => {
    if (token !== undefined) {
      extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: lines, message },
      }).catch(() => {});
    }
    if (options.debugLogging) {
      extra.sendNotification({
        method: "notifications/message",
        params: { level: "debug", logger: options.logger, data: message },
      }).catch(() => {});
    }
  });
}
