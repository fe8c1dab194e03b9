import { describe, expect, it } from 'vitest';
import { retryDelays, withRetries } from './retry';

describe('maps script retries', () => {
  it('retries up to 3 times with growing delays', () => {
    expect(retryDelays()).toEqual([1000, 2000, 4000]);
    expect(retryDelays(3, 50)).toEqual([50, 100, 200]);
    expect(retryDelays(0)).toEqual([]);
  });

  it('gives up after the first try and 3 retries, with the last error', async () => {
    const slept: number[] = [];
    let attempts = 0;
    await expect(
      withRetries(
        async (n) => {
          attempts++;
          throw new Error(`fail ${n}`);
        },
        { baseDelayMs: 10, sleep: async (ms) => void slept.push(ms) },
      ),
    ).rejects.toThrow('fail 4');
    expect(attempts).toBe(4);
    expect(slept).toEqual([10, 20, 40]);
  });

  it('stops retrying as soon as an attempt succeeds', async () => {
    const slept: number[] = [];
    const retried: number[] = [];
    const result = await withRetries(
      async (n) => {
        if (n < 3) throw new Error('not yet');
        return 'loaded';
      },
      {
        baseDelayMs: 5,
        sleep: async (ms) => void slept.push(ms),
        onRetry: (attempt) => retried.push(attempt),
      },
    );
    expect(result).toBe('loaded');
    expect(slept).toEqual([5, 10]);
    expect(retried).toEqual([1, 2]);
  });
});
