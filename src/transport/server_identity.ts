// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type Implementation,
  type InitializeRequest,
  type InitializeResult,
  LATEST_PROTOCOL_VERSION,
  type ServerCapabilities,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";

/** What a server says about itself when a client initializes. */
export interface ServerIdentity {
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  instructions?: string | undefined;
}

/** The initialize result of `identity` for a client's request, negotiating the version as the SDK does. */
export function initializeResult(
  identity: ServerIdentity,
  params: InitializeRequest["params"],
): InitializeResult {
  const asked = params.protocolVersion;
  return {
    protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION,
    capabilities: identity.capabilities,
    serverInfo: identity.serverInfo,
    ...(identity.instructions ? { instructions: identity.instructions } : {}),
  };
}
