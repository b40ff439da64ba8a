/** Least time between two messages about one call's running output. */
export const OUTPUT_MESSAGE_INTERVAL_MS = 500;

/** Characters of new output one message carries at most (the newest are kept). */
export const OUTPUT_MESSAGE_CHARACTERS = 2_000;

/**
 * Turns a command's output chunks into at most one `send(lines, text)` per interval, where
 * `lines` counts every output line so far in `counter.count` (progress values must only grow)
 * and `text` is the output new since the last message.
 */
export function throttleOutput(
  counter: { count: number },
  send: (lines: number, text: string) => void,
): (text: string) => void {
  let pending = "";
  let lastSent = 0;
  return (text) => {
    pending += text;
    counter.count += text.split("\n").length - 1;
    const now = Date.now();
    if (now - lastSent < OUTPUT_MESSAGE_INTERVAL_MS) return;
    lastSent = now;
    send(counter.count, pending.slice(-OUTPUT_MESSAGE_CHARACTERS));
    pending = "";
  };
}
