import { MAPS_LOAD_RETRIES, MAPS_RETRY_BASE_DELAY_MS } from './constants';

/** Growing delays before each retry: base, 2 x base, 4 x base, ... */
export function retryDelays(
  retries = MAPS_LOAD_RETRIES,
  baseMs = MAPS_RETRY_BASE_DELAY_MS,
): number[] {
  return Array.from({ length: Math.max(0, retries) }, (_, i) => baseMs * 2 ** i);
}

export interface RetryOptions {
  retries?: number;
  baseDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  onRetry?: (attempt: number, delayMs: number, error: unknown) => void;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `attempt` once, then retries it up to `retries` times with growing delays. */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const delays = retryDelays(options.retries, options.baseDelayMs);
  const sleep = options.sleep ?? defaultSleep;
  let lastError: unknown;
  for (let i = 0; i <= delays.length; i++) {
    try {
      return await attempt(i + 1);
    } catch (err) {
      lastError = err;
      const delay = delays[i];
      if (delay === undefined) break;
      options.onRetry?.(i + 1, delay, err);
      await sleep(delay);
    }
  }
  throw lastError;
}
