import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { z } from 'zod';
import { friendshipId } from '@wayfarer/contracts';
import { HttpError } from './errors';

/*
 * Access fences: what the source of truth writes to Redis before it answers that access has
 * ended, so the services deciding from an event projection refuse at once instead of after the
 * Kafka lag (or a whole Kafka outage). Two kinds:
 *
 * - an ended friendship, per pair: social writes it in the unfriend's transaction, before the
 *   commit, with the time of its `friendship.removed`. A projection whose record of the pair is
 *   older than that time has not applied the removal yet: the pair is refused. A newer record (a
 *   friendship made again, applied) is believed, so the fence is never cleared: it orders itself
 *   against the projection by time.
 * - a closed account, per user: auth writes it in the closing transaction, before the commit.
 *   Anything of the user's is refused to anyone else: friends' reads (through the friendship
 *   check), share links, pictures, search. Ids are random UUIDs, never reused, so it is never
 *   cleared either.
 *
 * Keys hold a SHA-256 of the ids, never an id (an erased user's id must leave every store), and
 * expire: `FENCE_TTL_SECONDS`, longer than any Kafka outage we accept; the events have ended the
 * access for good long before.
 *
 * Redis down: every check throws `FencesUnavailableError` (a 503) rather than trusting the
 * projection: friends-only data and public pages fail closed, as the gateway does with sessions.
 * A fence that cannot be written fails the change (nothing committed).
 */

/** How long each fence outlives its write, in seconds. */
export const FENCE_TTL_SECONDS = {
  /** 7 days: a Kafka outage (or a consumer stuck) longer than that is not accepted. */
  friendshipEnded: 7 * 24 * 60 * 60,
  /** 30 days: the erasure of a closed account is done by then however long Kafka was away. */
  accountClosed: 30 * 24 * 60 * 60,
} as const;

const digest = (text: string): string => createHash('sha256').update(text).digest('base64url');

/** The Redis key of the ended-friendship fence of a pair (either order). */
export const friendshipEndedFenceKey = (a: string, b: string): string =>
  `fence:friendship-ended:${digest(friendshipId(a, b))}`;

/** The Redis key of the closed-account fence of a user. */
export const accountClosedFenceKey = (userId: string): string =>
  `fence:account-closed:${digest(userId)}`;

export const FenceMessages = {
  unavailable:
    'Access cannot be checked right now (access store unavailable). Please try again shortly.',
} as const;

/** Redis did not answer a fence read or write: a 503, nothing served, nothing changed. */
export class FencesUnavailableError extends HttpError {
  constructor(cause: unknown) {
    super(503, FenceMessages.unavailable, 'service_unavailable');
    this.name = 'FencesUnavailableError';
    this.cause = cause;
  }
}

/** Env fragment of a service that reads or writes fences. */
export const fencesEnv = {
  REDIS_URL: z.string().min(1),
};

/** The Redis commands fences use (an ioredis client). */
type FenceRedis = Pick<Redis, 'mget' | 'exists' | 'set' | 'eval'>;

/** Deletes KEYS[1] only while it still holds ARGV[1] (a fence another write replaced stays). */
const DELETE_IF_EQUAL = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1]) end return 0`;
const CLOSED = '1';

export class AccessFences {
  constructor(private readonly redis: FenceRedis) {}

  private async on<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      throw new FencesUnavailableError(err);
    }
  }

  /** social: `a` and `b` stopped being friends at `endedAt` (the removal event's occurredAt). */
  async endFriendship(a: string, b: string, endedAt: string): Promise<void> {
    await this.on(() =>
      this.redis.set(
        friendshipEndedFenceKey(a, b),
        endedAt,
        'EX',
        FENCE_TTL_SECONDS.friendshipEnded,
      ),
    );
  }

  /** social: the unfriend that wrote this fence did not commit after all. */
  async liftEndedFriendship(a: string, b: string, endedAt: string): Promise<void> {
    await this.on(() =>
      this.redis.eval(DELETE_IF_EQUAL, 1, friendshipEndedFenceKey(a, b), endedAt),
    );
  }

  /** auth: `userId`'s account is closed. */
  async closeAccount(userId: string): Promise<void> {
    await this.on(() =>
      this.redis.set(accountClosedFenceKey(userId), CLOSED, 'EX', FENCE_TTL_SECONDS.accountClosed),
    );
  }

  /** auth: the closing that wrote this fence did not commit after all. */
  async liftClosedAccount(userId: string): Promise<void> {
    await this.on(() => this.redis.eval(DELETE_IF_EQUAL, 1, accountClosedFenceKey(userId), CLOSED));
  }

  /** Whether `userId`'s account is closed. */
  async isClosed(userId: string): Promise<boolean> {
    return (await this.on(() => this.redis.exists(accountClosedFenceKey(userId)))) === 1;
  }

  /** Those of `userIds` whose account is closed (one round trip). */
  async closedAmong(userIds: readonly string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const values = await this.on(() => this.redis.mget(userIds.map(accountClosedFenceKey)));
    return new Set(userIds.filter((_, i) => values[i] !== null));
  }

  /**
   * Of `pairs` (each a user `a`, a user `b`, and the time of the projection's latest event of
   * the pair, which says they are friends), those whose access has ended since: the pair's
   * friendship ended after `asOf`, or either account is closed. One round trip.
   */
  async fencedPairs<P extends { a: string; b: string; asOf: string }>(
    pairs: readonly P[],
  ): Promise<Set<P>> {
    if (pairs.length === 0) return new Set();
    const keys = pairs.flatMap((p) => [
      friendshipEndedFenceKey(p.a, p.b),
      accountClosedFenceKey(p.a),
      accountClosedFenceKey(p.b),
    ]);
    const values = await this.on(() => this.redis.mget(keys));
    return new Set(
      pairs.filter((p, i) => {
        const [ended, aClosed, bClosed] = values.slice(i * 3, i * 3 + 3);
        return aClosed !== null || bClosed !== null || (ended != null && ended > p.asOf);
      }),
    );
  }

  /** Whether access between `a` and `b`, friends as of `asOf` in a projection, has ended. */
  async fenced(a: string, b: string, asOf: string): Promise<boolean> {
    return (await this.fencedPairs([{ a, b, asOf }])).size > 0;
  }
}

/**
 * A Redis client for fences that fails fast (no offline queue, a 1 s command timeout: a check
 * never waits for a reconnect) and reconnects in the background, and the fences on it. It is
 * connected before this resolves when Redis answers; a Redis unreachable at start is logged and
 * retried, every check meanwhile a 503. `close()` on shutdown.
 */
export async function connectFences(
  url: string,
  logger: Logger,
): Promise<{ fences: AccessFences; redis: Redis; close: () => Promise<void> }> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 1_000,
    connectTimeout: 2_000,
    retryStrategy: (attempt: number) => Math.min(50 * attempt, 1_000),
  });
  let down = false;
  redis.on('error', (err: Error) => {
    // one warning per outage, not one per reconnection attempt
    if (!down) logger.warn({ err: err.message }, 'redis unreachable: access fences cannot be read');
    down = true;
  });
  redis.on('ready', () => {
    if (down) logger.info('redis reachable again: access fences');
    down = false;
  });
  await redis.connect().catch((err: unknown) => {
    logger.warn({ err }, 'redis unreachable at start (access fences); retrying in the background');
  });
  return {
    fences: new AccessFences(redis),
    redis,
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
