/** Where transports report what happens to sessions; the CLI's Logger fits it. */
export interface TransportLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}
