import type { Redis } from 'ioredis';
import type { ThrottleCounters, WindowCounter } from '../domain/throttle';
import { onRedis } from './redis';

const PREFIX = 'auth:login-failures';
const keys = (address: string, email: string) => ({
  pair: `${PREFIX}:pair:${address}:${email}`,
  address: `${PREFIX}:ip:${address}`,
  account: `${PREFIX}:email:${email}`,
});

/**
 * Failed-login counters in Redis, fixed windows (the TTL is set by a window's first failure):
 * per (address, email) pair, per address, per email. `address` is the domain's
 * `throttleAddress`; `email` the normalised login email (known account or not, so the answer
 * does not depend on whether the account exists). Every method throws RedisUnavailableError
 * when Redis cannot be reached.
 */
export class LoginThrottleStore {
  constructor(
    private readonly redis: Redis,
    private readonly windowSeconds: number,
  ) {}

  read(address: string, email: string): Promise<ThrottleCounters> {
    const k = keys(address, email);
    return onRedis(async () => {
      const res = await this.redis
        .multi()
        .get(k.pair)
        .ttl(k.pair)
        .get(k.address)
        .ttl(k.address)
        .get(k.account)
        .ttl(k.account)
        .exec();
      const value = (i: number) => {
        const entry = res?.[i];
        if (!entry || entry[0]) throw entry?.[0] ?? new Error('redis transaction aborted');
        return entry[1];
      };
      const counter = (i: number): WindowCounter => ({
        failures: Number(value(i) ?? 0),
        ttlSeconds: Number(value(i + 1)),
      });
      return { pair: counter(0), address: counter(2), account: counter(4) };
    });
  }

  recordFailure(address: string, email: string): Promise<void> {
    const k = keys(address, email);
    return onRedis(async () => {
      const tx = this.redis.multi();
      for (const key of [k.pair, k.address, k.account]) {
        tx.incr(key).expire(key, this.windowSeconds, 'NX');
      }
      await tx.exec();
    });
  }

  /** After a successful login: the pair and the account start afresh (not the address). */
  reset(address: string, email: string): Promise<void> {
    const k = keys(address, email);
    return onRedis(async () => {
      await this.redis.del(k.pair, k.account);
    });
  }

  /**
   * A closed account: its counters go (they name the email), the pair counters of every
   * address included. Throws RedisUnavailableError when Redis cannot be reached.
   */
  forgetAccount(email: string): Promise<void> {
    const glob = email.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
    return onRedis(async () => {
      const found: string[] = [keys('', email).account];
      let cursor = '0';
      do {
        const [next, batch] = await this.redis.scan(
          cursor,
          'MATCH',
          `${PREFIX}:pair:*:${glob}`,
          'COUNT',
          1000,
        );
        cursor = next;
        found.push(...batch);
      } while (cursor !== '0');
      await this.redis.del(...found);
    });
  }
}
