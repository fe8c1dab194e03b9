import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '@wayfarer/service-kit';

/**
 * The gateway's Redis client fails fast: a session check or a rate-limit count must never wait
 * for Redis (the requests behind it would pile up for seconds, then fail anyway). While Redis is
 * unreachable a command is refused at once (no offline queue) and the client reconnects in the
 * background; a Redis that accepts the connection but does not answer costs at most
 * `commandTimeout` per command. A request normally sends none: sessions are checked against a
 * local copy of the revocations (`revocations.ts`) and rate limits counted locally
 * (`rate-limit.ts`). When the copy is not trusted, the session check asks Redis and answers 503
 * if it cannot (session.ts); the rate limiter decides on its own counts; `/readyz` reports redis
 * down. The revocation copy's subscriber connection is a duplicate of this client.
 */
export const GATEWAY_REDIS_OPTIONS = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  // a frozen Redis costs at most this per command; high enough that a busy machine (event-loop
  // lag, a Redis fsync) does not turn a slow answer into a 503
  commandTimeout: 1_000,
  connectTimeout: 2_000,
  // reconnect in the background: quickly at first, then every second
  retryStrategy: (attempt: number) => Math.min(50 * attempt, 1_000),
} satisfies RedisOptions;

export function connectRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, GATEWAY_REDIS_OPTIONS);
  let down = false;
  redis.on('error', (err: Error) => {
    // one warning per outage, not one per reconnection attempt
    if (!down) logger.warn({ err: err.message }, 'redis unreachable: sessions cannot be checked');
    down = true;
  });
  redis.on('ready', () => {
    if (down) logger.info('redis reachable again');
    down = false;
  });
  return redis;
}
