/**
 * Small helpers of the latency benchmarks (issue 21's inbox, feed and notification arrival):
 * a percentile of samples and the time of one call.
 */

/** The `p`th percentile (nearest rank) of `samples`, in their unit. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error('no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

/** How long `fn` took, in ms. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}
