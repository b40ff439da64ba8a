import { timingSafeEqual } from "node:crypto";
import { jsonRpcErrorResponse } from "./http_responses.ts";

/** True for names that reach only this machine: localhost, 127.0.0.0/8 and ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return name === "localhost" || name === "::1" || /^127(\.\d{1,3}){3}$/.test(name);
}

/** Options for {@linkcode guardRequest}. */
export interface RequestGuardOptions {
  /** When set, every request must carry `Authorization: Bearer <authToken>`. */
  authToken?: string;
  /**
   * Accept a Host header naming another machine; true only for a non-loopback bind, which
   * ahma allows only with a token. Default: false.
   */
  allowAnyHost?: boolean;
}

/**
 * Refuses a request that a DNS-rebinding page or an unauthenticated caller could send: 403 for a
 * Host or Origin naming another site, 401 without the bearer token. Undefined lets it through.
 */
export function guardRequest(
  request: Request,
  options: RequestGuardOptions = {},
): Response | undefined {
  const { authToken, allowAnyHost = false } = options;
  // Deno.serve builds the URL from the Host header; a Request made in-process has only the URL.
  const host = request.headers.get("host") ?? new URL(request.url).host;
  const hostname = hostnameOf(host);
  if (!allowAnyHost && (hostname === undefined || !isLoopbackHost(hostname))) {
    return jsonRpcErrorResponse(
      403,
      `Forbidden: Host header "${host}" is not this machine; connect to 127.0.0.1 or localhost`,
    );
  }
  const origin = request.headers.get("origin");
  if (origin !== null && !isAllowedOrigin(origin, hostname)) {
    return jsonRpcErrorResponse(
      403,
      `Forbidden: Origin "${origin}" may not use this server; only local pages may call it`,
    );
  }
  if (authToken !== undefined && !hasBearerToken(request, authToken)) {
    return jsonRpcErrorResponse(
      401,
      'Unauthorized: send the server\'s token as "Authorization: Bearer TOKEN"',
      { headers: { "WWW-Authenticate": 'Bearer realm="ahma"' } },
    );
  }
  return undefined;
}

/** A browser page may call only when it is served from this machine or from the host asked. */
function isAllowedOrigin(origin: string, requestHostname: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  return isLoopbackHost(url.hostname) || url.hostname === requestHostname;
}

function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

function hasBearerToken(request: Request, token: string): boolean {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (!match?.[1]) return false;
  const given = new TextEncoder().encode(match[1].trim());
  const expected = new TextEncoder().encode(token);
  // Compared in constant time so response timing does not leak the token byte by byte.
  return given.length === expected.length && timingSafeEqual(given, expected);
}
