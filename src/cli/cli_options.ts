import { parseArgs } from "node:util";
import { DEFAULT_TIMEOUT_SECONDS } from "../engine/mod.ts";
import {
  DEFAULT_HTTP_HOST,
  DEFAULT_HTTP_PORT,
  DEFAULT_IDLE_TIMEOUT_SECONDS,
} from "../transport/mod.ts";
import { LOG_LEVELS, type LogLevel } from "./logger.ts";

/** One command-line option: its parser type and the line `--help` prints for it. */
interface OptionEntry {
  type: "string" | "boolean";
  multiple?: boolean;
  short?: string;
  value?: string;
  help: string;
}

/** Every option ahma accepts; `--help` and the parser are both built from this table. */
export const CLI_OPTIONS = {
  mode: { type: "string", value: "stdio|http", help: "Serve MCP over stdin/stdout or HTTP" },
  host: {
    type: "string",
    value: "HOST",
    help:
      `With --mode http: interface to bind (default: ${DEFAULT_HTTP_HOST}; others need --auth-token)`,
  },
  port: {
    type: "string",
    value: "PORT",
    help: `With --mode http: port to listen on, 0 for any free one (default: ${DEFAULT_HTTP_PORT})`,
  },
  "auth-token": {
    type: "string",
    value: "TOKEN",
    help: 'With --mode http: require "Authorization: Bearer TOKEN" (or set AHMA_AUTH_TOKEN)',
  },
  "session-isolation": {
    type: "boolean",
    help: "With --mode http: one ahma child per session, confined to the session's first root",
  },
  "idle-timeout": {
    type: "string",
    value: "SECONDS",
    help:
      `With --mode http: close a session idle this long (default: ${DEFAULT_IDLE_TIMEOUT_SECONDS})`,
  },
  tool_name: {
    type: "string",
    value: "NAME",
    help: "Run one tool once, print its output, exit with its code",
  },
  tool_args: { type: "string", value: "JSON", help: "Arguments for --tool_name, as a JSON object" },
  "tools-dir": {
    type: "string",
    value: "DIR",
    help:
      "Tool definitions directory (default: ./.ahma/tools if present, else the bundled catalog)",
  },
  "sandbox-scope": {
    type: "string",
    multiple: true,
    value: "DIR",
    help: "Directory commands may write; repeatable (default: the current directory)",
  },
  timeout: {
    type: "string",
    value: "SECONDS",
    help: `Default command timeout (default: ${DEFAULT_TIMEOUT_SECONDS})`,
  },
  "no-sandbox": { type: "boolean", help: "Run commands unconfined (announced loudly; avoid)" },
  "no-network": { type: "boolean", help: "Also cut commands off from the network" },
  async: {
    type: "boolean",
    help: "Run calls in the background by default, except tools marked force_synchronous",
  },
  "read-only": { type: "boolean", help: "List and accept only tools annotated readOnlyHint" },
  "log-level": {
    type: "string",
    value: LOG_LEVELS.join("|"),
    help: "Least severe message logged (default: info)",
  },
  "log-file": { type: "string", value: "FILE", help: "Append logs to FILE instead of stderr" },
  check: { type: "boolean", help: "With schema: fail when OUT is not the generated schema" },
  http: { type: "string", value: "URL", help: "With list-tools: the MCP server's HTTP endpoint" },
  format: {
    type: "string",
    value: "text|json",
    help: "With list-tools: output format (default: text)",
  },
  help: { type: "boolean", short: "h", help: "Print this help" },
  version: { type: "boolean", short: "V", help: "Print the version" },
} satisfies Record<string, OptionEntry>;

/** The parsed command line. */
export interface CliArguments {
  command:
    | "serve"
    | "run-tool"
    | "validate"
    | "schema"
    | "doctor"
    | "list-tools"
    | "help"
    | "version"
    | "usage";
  /** Words after the subcommand, or after `--` for `--tool_name`. */
  rest: string[];
  mode?: string;
  host?: string;
  port?: number;
  authToken?: string;
  sessionIsolation: boolean;
  idleTimeoutSeconds?: number;
  toolName?: string;
  toolArgs?: string;
  toolsDir?: string;
  sandboxScopes: string[];
  timeoutSeconds?: number;
  noSandbox: boolean;
  noNetwork: boolean;
  readOnly: boolean;
  asyncByDefault: boolean;
  logLevel: LogLevel;
  logFile?: string;
  check: boolean;
  http?: string;
  format: "text" | "json";
}

const SUBCOMMANDS = ["validate", "schema", "doctor", "list-tools"] as const;

/** Parses the command line; throws a `TypeError` that says what is wrong with it. */
export function parseCliArguments(args: string[]): CliArguments {
  const { values, positionals, tokens } = parseArgs({
    args,
    options: CLI_OPTIONS,
    allowPositionals: true,
    strict: true,
    tokens: true,
  });
  const dashDash = tokens.find((token) => token.kind === "option-terminator")?.index;
  const afterDashDash = dashDash === undefined ? [] : args.slice(dashDash + 1);
  const beforeDashDash = positionals.slice(0, positionals.length - afterDashDash.length);
  const [first, ...rest] = beforeDashDash;
  const logLevel = values["log-level"] ?? "info";
  if (!isLogLevel(logLevel)) {
    throw new TypeError(
      `Cannot use --log-level "${logLevel}": use one of ${LOG_LEVELS.join(", ")}`,
    );
  }
  const parsed: CliArguments = {
    command: "usage",
    rest: [],
    sandboxScopes: values["sandbox-scope"] ?? [],
    noSandbox: values["no-sandbox"] ?? false,
    noNetwork: values["no-network"] ?? false,
    readOnly: values["read-only"] ?? false,
    asyncByDefault: values.async ?? false,
    sessionIsolation: values["session-isolation"] ?? false,
    check: values.check ?? false,
    format: parseFormat(values.format),
    logLevel,
    ...definedOnly({
      mode: values.mode,
      toolName: values.tool_name,
      toolArgs: values.tool_args,
      toolsDir: values["tools-dir"],
      logFile: values["log-file"],
      http: values.http,
      timeoutSeconds: parseTimeout(values.timeout),
      host: values.host,
      port: parsePort(values.port),
      authToken: values["auth-token"],
      idleTimeoutSeconds: parseTimeout(values["idle-timeout"], "--idle-timeout"),
    }),
  };
  if (values.help) return { ...parsed, command: "help" };
  if (values.version) return { ...parsed, command: "version" };
  if (first !== undefined) {
    if (!(SUBCOMMANDS as readonly string[]).includes(first)) {
      throw new TypeError(
        `Cannot run "${first}": unknown command; run "ahma --help" to see the commands`,
      );
    }
    return {
      ...parsed,
      command: first as typeof SUBCOMMANDS[number],
      rest: [...rest, ...afterDashDash],
    };
  }
  if (parsed.toolName !== undefined) return { ...parsed, command: "run-tool", rest: afterDashDash };
  if (parsed.mode !== undefined) {
    if (parsed.mode !== "stdio" && parsed.mode !== "http") {
      throw new TypeError(`Cannot serve --mode "${parsed.mode}": use --mode stdio or --mode http`);
    }
    return { ...parsed, command: "serve" };
  }
  return parsed;
}

function parseFormat(text: string | undefined): "text" | "json" {
  if (text === undefined || text === "text" || text === "json") return text ?? "text";
  throw new TypeError(`Cannot use --format "${text}": use text or json`);
}

function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

function parseTimeout(text: string | undefined, flag = "--timeout"): number | undefined {
  if (text === undefined) return undefined;
  const seconds = Number(text);
  if (!(seconds > 0 && seconds <= 86_400)) {
    throw new TypeError(`Cannot use ${flag} "${text}": give a number of seconds from 1 to 86400`);
  }
  return seconds;
}

function parsePort(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new TypeError(`Cannot use --port "${text}": give a whole number from 0 to 65535`);
  }
  return port;
}

function definedOnly<T extends Record<string, unknown>>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as Partial<
    T
  >;
}

/** The `--help` text. */
export function usageText(): string {
  const lines = Object.entries(CLI_OPTIONS).map(([name, entry]: [string, OptionEntry]) => {
    const flag = `${entry.short ? `-${entry.short}, ` : "    "}--${name}${
      entry.value ? ` ${entry.value}` : ""
    }`;
    return `  ${flag.padEnd(34)} ${entry.help}`;
  });
  return [
    "ahma: command-line tools as MCP tools for AI agents, confined to the workspace",
    "",
    "Usage:",
    "  ahma --mode stdio [OPTIONS]                       serve MCP over stdin/stdout",
    "  ahma --mode http [--host H] [--port P] [OPTIONS]  serve MCP over HTTP (/mcp, /sse, /health)",
    "  ahma --tool_name NAME [--tool_args JSON] [-- ARGS] run one tool once",
    "  ahma validate [PATH...]                           check tool files (default: the tools directory)",
    "  ahma schema [OUT] | schema --check OUT            write or check the MTDF JSON Schema",
    "  ahma doctor                                       check the setup; exit 1 when broken",
    "  ahma list-tools [--http URL | -- COMMAND ARGS]    print the tools of any MCP server",
    "",
    "Options:",
    ...lines,
    "",
  ].join("\n");
}
