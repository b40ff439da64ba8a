/** Characters of output a response carries before it is cut to head and tail. */
export const DEFAULT_OUTPUT_CAP = 64 * 1024;

/**
 * Cuts text longer than `cap` to its head and tail around a marker saying how much was cut.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cutMiddle } from "./output_cap.ts";
 * assert.equal(cutMiddle("abcdefghij", 4), "ab\n[... 6 characters cut ...]\nij");
 * ```
 */
export function cutMiddle(text: string, cap: number): string {
  if (text.length <= cap) return text;
  const head = Math.ceil(cap / 2);
  const tail = cap - head;
  const cut = text.length - cap;
  return `${text.slice(0, head)}\n[... ${cut} characters cut ...]\n${
    text.slice(text.length - tail)
  }`;
}
