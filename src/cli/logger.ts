/** Log levels, least to most severe. */
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;

/** One of {@linkcode LOG_LEVELS}. */
export type LogLevel = typeof LOG_LEVELS[number];

/** Where ahma's own messages go: never stdout, which carries the protocol in stdio mode. */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Options for {@linkcode createLogger}. */
export interface LoggerOptions {
  /** Messages below this level are dropped. Default: "info". */
  level?: LogLevel;
  /** Append to this file instead of writing to stderr. */
  file?: string;
}

/** Builds the logger: lines `ahma LEVEL message` to stderr, or appended to a file. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const { level = "info", file } = options;
  const threshold = LOG_LEVELS.indexOf(level);
  const encoder = new TextEncoder();
  const sink = file ? Deno.openSync(file, { append: true, create: true }) : Deno.stderr;
  const write = (at: LogLevel, message: string) => {
    if (LOG_LEVELS.indexOf(at) < threshold) return;
    const stamp = file ? `${new Date().toISOString()} ` : "";
    sink.writeSync(encoder.encode(`${stamp}ahma ${at.toUpperCase()} ${message}\n`));
  };
  return {
    debug: (message) => write("debug", message),
    info: (message) => write("info", message),
    warn: (message) => write("warn", message),
    error: (message) => write("error", message),
  };
}
