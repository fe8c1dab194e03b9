import { Redis } from 'ioredis';

/**
 * How long one Redis command may take before it fails. Redis answers in well under a
 * millisecond; a command still pending after this is a Redis that is gone or stuck.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 1000;

/**
 * A Redis client that fails fast when Redis is unreachable: no offline queue (a command sent
 * while disconnected fails at once instead of waiting for a reconnect), commands in flight
 * fail when the connection drops (no retry) or after REDIS_COMMAND_TIMEOUT_MS. It keeps
 * reconnecting in the background (at most a second apart). Not connected yet: call `connect()`.
 */
export function connectRedis(url: string): Redis {
  return new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 100, 1000),
  });
}

/** Redis could not be reached or did not answer: the caller decides what that means. */
export class RedisUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`Redis is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'RedisUnavailableError';
  }
}

/** Runs a Redis operation, turning any failure of Redis into a RedisUnavailableError. */
export async function onRedis<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    throw new RedisUnavailableError(err);
  }
}
