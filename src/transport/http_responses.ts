/** JSON-RPC "server error" code, used for transport-level refusals as the SDK does. */
export const SERVER_ERROR_CODE = -32000;

/** Options for {@linkcode jsonRpcErrorResponse}. */
export interface JsonRpcErrorResponseOptions {
  /** JSON-RPC error code. Default: SERVER_ERROR_CODE. */
  code?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/** An HTTP error whose body is a JSON-RPC error without an id, as MCP clients expect. */
export function jsonRpcErrorResponse(
  status: number,
  message: string,
  options: JsonRpcErrorResponseOptions = {},
): Response {
  const { code = SERVER_ERROR_CODE, headers = {} } = options;
  return Response.json(
    { jsonrpc: "2.0", error: { code, message }, id: null },
    { status, headers },
  );
}
