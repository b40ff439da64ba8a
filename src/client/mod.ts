/** The MCP client side: reading other servers. */
export {
  listServerTools,
  type ListToolsOptions,
  renderToolList,
  type ServerTarget,
} from "./list_tools.ts";
