import type { Redis } from 'ioredis';
import type { Logger } from '@wayfarer/service-kit';

/**
 * Rate limits shared by every gateway instance through Redis, without a Redis round trip per
 * request.
 *
 * The window slides: a key's count is the requests of the current aligned window plus those of
 * the previous one weighted by how much of it still overlaps the last `windowMs` (no reset, and
 * no double burst, at a window boundary). One Redis counter per key and window
 * (`<prefix><window>:<key>`, expiring after two windows).
 *
 * Each instance counts locally and every SYNC_INTERVAL_MS adds its unsent counts to the shared
 * counters (INCRBY, one pipeline for all keys), reading back the global counts. A request is
 * decided locally while the count this instance knows stays within half the limit; past that,
 * each request of the key is decided in Redis (one script: add the unsent counts, then count
 * the request only if it fits), so the second half of every budget is exact. A refused key is
 * refused locally until the time its count allows a request again (no round trip per refusal).
 *
 * Overshoot, stated: what other instances admitted locally (each at most half the limit) and
 * had not yet synced (they sync every SYNC_INTERVAL_MS). So at most `(N - 1) * limit / 2` above
 * the limit with N instances, in practice only the other instances' admissions of the last
 * SYNC_INTERVAL_MS. Refused requests are not counted. While Redis cannot be reached each
 * instance enforces the limit on its own counts (so at most N times the limit) rather than fail
 * requests or let everything through.
 */
export const SYNC_INTERVAL_MS = 250;

export interface RateDecision {
  allowed: boolean;
  /** When refused: milliseconds until a request of this key can be admitted again. */
  retryAfterMs: number;
}

interface Counter {
  window: number;
  /** The previous window's count (from Redis when known, else this instance's own). */
  previous: number;
  /** This window's global count as last read from Redis (includes this instance's sent counts). */
  global: number;
  /** Counted here, not yet sent to Redis. */
  unsent: number;
  /** Sent, not yet acknowledged (a sync in flight). */
  inFlight: number;
  /** Refused without asking Redis until this time (ms since the epoch). */
  refusedUntil: number;
}

/**
 * KEYS: this window's counter, the previous window's. ARGV: unsent counts, limit, weight of the
 * previous window, expiry (ms). Adds the unsent counts, then counts this request only if the
 * sliding count leaves room for it. Returns { current count, previous count, admitted 0/1 }.
 */
const HIT_SCRIPT = `
local current = redis.call('INCRBY', KEYS[1], ARGV[1])
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
local admitted = 0
if previous * tonumber(ARGV[3]) + current + 1 <= tonumber(ARGV[2]) then
  current = redis.call('INCR', KEYS[1])
  admitted = 1
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return { current, previous, admitted }
`;

export class SharedRateLimiter {
  private readonly counters = new Map<string, Counter>();
  private readonly timer: NodeJS.Timeout;
  private syncing = false;
  private readonly windowMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
    private readonly options: { prefix: string; windowMs: number },
  ) {
    this.windowMs = options.windowMs;
    this.timer = setInterval(() => void this.sync(), SYNC_INTERVAL_MS);
    this.timer.unref();
  }

  private redisKey(window: number, key: string): string {
    return `${this.options.prefix}${window}:${key}`;
  }

  private counterFor(key: string, window: number): Counter {
    let counter = this.counters.get(key);
    if (!counter) {
      counter = { window, previous: 0, global: 0, unsent: 0, inFlight: 0, refusedUntil: 0 };
      this.counters.set(key, counter);
    } else if (counter.window !== window) {
      const total = counter.global + counter.inFlight + counter.unsent;
      counter.previous = counter.window === window - 1 ? total : 0;
      counter.window = window;
      counter.global = 0;
      // unsent counts of the old window are dropped (a sync in flight still lands in it)
      counter.unsent = 0;
      counter.inFlight = 0;
    }
    return counter;
  }

  /**
   * When a request of a key can be admitted again, given its counts (no further requests):
   * within this window once the previous one's weight has decayed enough, else in the next.
   */
  private admissibleAt(window: number, current: number, previous: number, limit: number) {
    const start = window * this.windowMs;
    if (current + 1 <= limit) {
      const fraction = previous > 0 ? 1 - (limit - 1 - current) / previous : 0;
      return start + this.windowMs * Math.max(0, fraction);
    }
    return start + this.windowMs * (1 + Math.max(0, 1 - (limit - 1) / current));
  }

  /** Counts one request of `key` against `limit`; a promise only when Redis must be asked. */
  hit(key: string, limit: number): RateDecision | Promise<RateDecision> {
    const now = Date.now();
    const window = Math.floor(now / this.windowMs);
    const counter = this.counterFor(key, window);
    if (now < counter.refusedUntil) {
      return { allowed: false, retryAfterMs: counter.refusedUntil - now };
    }
    const weight = 1 - (now - window * this.windowMs) / this.windowMs;
    if (this.admitLocally(counter, limit, weight)) return { allowed: true, retryAfterMs: 0 };
    return this.hitInRedis(key, counter, limit, weight, now);
  }

  /**
   * `hit` when it admits the request locally (counted, true); false, counting nothing, when
   * `hit` would refuse it or ask Redis (the gateway's hot path then leaves the request to
   * `hit`: `hot-path.ts`).
   */
  admitsLocally(key: string, limit: number): boolean {
    const now = Date.now();
    const window = Math.floor(now / this.windowMs);
    const counter = this.counterFor(key, window);
    if (now < counter.refusedUntil) return false;
    return this.admitLocally(counter, limit, 1 - (now - window * this.windowMs) / this.windowMs);
  }

  /** Counts the request when this instance's counts keep it within half the limit. */
  private admitLocally(counter: Counter, limit: number, weight: number): boolean {
    const known = counter.previous * weight + counter.global + counter.inFlight + counter.unsent;
    if (known + 1 > limit / 2) return false;
    counter.unsent++;
    return true;
  }

  private async hitInRedis(
    key: string,
    counter: Counter,
    limit: number,
    weight: number,
    now: number,
  ): Promise<RateDecision> {
    const { window } = counter;
    const delta = counter.unsent;
    counter.unsent = 0;
    counter.inFlight += delta;
    let answer: [number, number, number];
    try {
      answer = (await this.redis.eval(
        HIT_SCRIPT,
        2,
        this.redisKey(window, key),
        this.redisKey(window - 1, key),
        delta,
        limit,
        weight,
        this.windowMs * 2,
      )) as [number, number, number];
    } catch (err) {
      this.logger.debug({ err: (err as Error).message }, 'rate limit decided locally');
      if (counter.window !== window) return { allowed: true, retryAfterMs: 0 };
      counter.inFlight -= delta;
      counter.unsent += delta; // sent by a later sync
      const current = counter.global + counter.inFlight + counter.unsent;
      if (counter.previous * weight + current + 1 <= limit) {
        counter.unsent++;
        return { allowed: true, retryAfterMs: 0 };
      }
      return this.refuse(counter, current, counter.previous, limit, now);
    }
    const [current, previous, admitted] = answer;
    if (counter.window !== window) return { allowed: admitted === 1, retryAfterMs: 0 };
    counter.inFlight -= delta;
    counter.global = Math.max(counter.global, current);
    counter.previous = previous;
    if (admitted === 1) return { allowed: true, retryAfterMs: 0 };
    return this.refuse(counter, current, previous, limit, now);
  }

  private refuse(
    counter: Counter,
    current: number,
    previous: number,
    limit: number,
    now: number,
  ): RateDecision {
    counter.refusedUntil = this.admissibleAt(counter.window, current, previous, limit);
    return { allowed: false, retryAfterMs: Math.max(1, counter.refusedUntil - now) };
  }

  /** Sends every key's unsent counts and reads back the global counts; drops idle keys. */
  async sync(): Promise<void> {
    if (this.syncing) return;
    this.syncing = true;
    try {
      const now = Date.now();
      const window = Math.floor(now / this.windowMs);
      const batch: [string, Counter, number][] = [];
      for (const [key, counter] of this.counters) {
        // nothing counted for two windows and not refused: nothing left to remember
        if (counter.window < window - 1 && counter.refusedUntil <= now) {
          this.counters.delete(key);
          continue;
        }
        if (counter.window === window && counter.unsent > 0) {
          batch.push([key, counter, counter.unsent]);
          counter.inFlight += counter.unsent;
          counter.unsent = 0;
        }
      }
      if (batch.length === 0) return;
      const pipeline = this.redis.pipeline();
      for (const [key, , delta] of batch) {
        const current = this.redisKey(window, key);
        pipeline
          .incrby(current, delta)
          .pexpire(current, this.windowMs * 2)
          .get(this.redisKey(window - 1, key));
      }
      let results: [Error | null, unknown][] | null = null;
      try {
        results = await pipeline.exec();
      } catch (err) {
        this.logger.debug({ err: (err as Error).message }, 'rate-limit sync failed');
      }
      batch.forEach(([, counter, delta], i) => {
        if (counter.window !== window) return; // rolled over meanwhile
        counter.inFlight -= delta;
        const [err, current] = results?.[i * 3] ?? [new Error('no answer'), null];
        const [, previous] = results?.[i * 3 + 2] ?? [null, null];
        if (err) {
          counter.unsent += delta; // sent again by the next sync
          return;
        }
        counter.global = Math.max(counter.global, Number(current));
        if (previous !== null) counter.previous = Number(previous);
      });
    } finally {
      this.syncing = false;
    }
  }

  close(): void {
    clearInterval(this.timer);
  }
}
