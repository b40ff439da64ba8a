/** Summary figures of a set of durations in milliseconds. */
export interface Summary {
  p50: number;
  p95: number;
  p99: number;
}

/** The p50, p95 and p99 of durations (nearest rank). */
export function summarize(durations: number[]): Summary {
  const sorted = [...durations].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

/** Calls per second of `total` calls run `concurrency` at a time. */
export async function throughput(
  total: number,
  concurrency: number,
  fn: () => Promise<unknown>,
): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < total) {
      next++;
      await fn();
    }
  }));
  return total / ((performance.now() - started) / 1000);
}
