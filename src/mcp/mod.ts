/** The MCP face of ahma: one SDK server per session over the engine, shared by every transport. */
export { type AhmaSession, type AhmaSessionOptions, createAhmaSession } from "./ahma_server.ts";
export { describeEnd, renderCommand, renderRun } from "./tool_result_text.ts";
export { RESERVED_TOOL_NAMES } from "./builtin_names.ts";
