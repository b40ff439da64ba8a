/** The MCP face of ahma: one SDK server over the engine, shared by every transport. */
export { type AhmaServerOptions, createAhmaServer } from "./ahma_server.ts";
export { describeEnd, renderCommand, renderRun } from "./tool_result_text.ts";
