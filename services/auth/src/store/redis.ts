import { Redis } from 'ioredis';
import { revokedSessionKey } from '@wayfarer/contracts';
import type { ThrottleCounters } from '../domain/throttle';

/** A Redis client that fails requests fast instead of queueing them for long when Redis is down. */
export function connectRedis(url: string): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: 2,
    connectTimeout: 3000,
    lazyConnect: false,
  });
}

/** Marks a session as revoked until it would have expired (the gateway checks this key). */
export async function revokeSession(redis: Redis, jti: string, ttlSeconds: number): Promise<void> {
  if (ttlSeconds <= 0) return;
  await redis.set(revokedSessionKey(jti), '1', 'EX', ttlSeconds);
}

const emailKey = (email: string) => `auth:login-failures:email:${email}`;
const ipKey = (ip: string) => `auth:login-failures:ip:${ip}`;

/** Failed-login counters in Redis (fixed windows: the TTL is set by the first failure). */
export class LoginThrottleStore {
  constructor(
    private readonly redis: Redis,
    private readonly windowSeconds: number,
  ) {}

  async read(email: string, ip: string): Promise<ThrottleCounters> {
    const res = await this.redis
      .multi()
      .get(emailKey(email))
      .ttl(emailKey(email))
      .get(ipKey(ip))
      .ttl(ipKey(ip))
      .exec();
    const value = (i: number) => {
      const entry = res?.[i];
      if (!entry || entry[0]) throw entry?.[0] ?? new Error('redis transaction aborted');
      return entry[1];
    };
    return {
      emailFailures: Number(value(0) ?? 0),
      emailTtlSeconds: Number(value(1)),
      ipFailures: Number(value(2) ?? 0),
      ipTtlSeconds: Number(value(3)),
    };
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    await this.redis
      .multi()
      .incr(emailKey(email))
      .expire(emailKey(email), this.windowSeconds, 'NX')
      .incr(ipKey(ip))
      .expire(ipKey(ip), this.windowSeconds, 'NX')
      .exec();
  }

  async reset(email: string): Promise<void> {
    await this.redis.del(emailKey(email));
  }
}
