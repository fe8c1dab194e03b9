import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { friendshipId } from '@wayfarer/contracts';
import {
  accountClosedFenceKey,
  connectFences,
  createLogger,
  FenceMessages,
  friendshipEndedFenceKey,
} from '@wayfarer/service-kit';
import { startRedisServer, type RedisServer } from '@wayfarer/test-kit/faults';
import { as, startSocial, type Harness } from './harness';

/**
 * social writes the ended-friendship fence before an unfriending commits, and reads the
 * closed-account fences for search, on a redis-server of the test's own: killed, nothing is
 * changed and nothing is found (503), fail closed.
 */
describe('access fences (own redis-server)', () => {
  let redis: RedisServer;
  let raw: Awaited<ReturnType<typeof connectFences>>;
  let h: Harness;
  let ann: string, ben: string, cat: string;

  beforeAll(async () => {
    redis = await startRedisServer();
    raw = await connectFences(redis.url, createLogger('test', 'silent'));
    h = await startSocial({ REDIS_URL: redis.url });
    [ann, ben, cat] = await Promise.all([h.register('Ann'), h.register('Ben'), h.register('Cat')]);
    await h.befriend(ann, ben);
    await h.befriend(ann, cat);
  }, 60_000);
  afterAll(async () => {
    await raw?.close();
    await h?.close();
    await redis.stop();
  });

  const removals = async (a: string, b: string) => {
    const { rows } = await h.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM outbox WHERE key = $1 AND envelope->>'type' = 'friendship.removed'`,
      [friendshipId(a, b)],
    );
    return Number(rows[0]!.n);
  };

  it('an unfriending has written its fence, with its removal event’s time, when it answers', async () => {
    expect((await h.unfriend(ann, ben)).statusCode).toBe(200);
    const { rows } = await h.pool.query<{ envelope: { type: string; occurredAt: string } }>(
      `SELECT envelope FROM outbox WHERE key = $1 ORDER BY seq DESC LIMIT 1`,
      [friendshipId(ann, ben)],
    );
    const removed = rows[0]!.envelope;
    expect(removed.type).toBe('friendship.removed');
    expect(await raw.redis.get(friendshipEndedFenceKey(ben, ann))).toBe(removed.occurredAt);
  });

  it('search leaves a closed account out at once', async () => {
    expect((await h.search(cat, 'Ben')).map((u) => u._id)).toEqual([ben]);
    await raw.redis.set(accountClosedFenceKey(ben), '1');
    expect(await h.search(cat, 'Ben')).toEqual([]);
  });

  it('with Redis killed, an unfriending is refused (503) and changes nothing; so is search', async () => {
    await redis.kill();
    const res = await h.unfriend(ann, cat);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ message: FenceMessages.unavailable });
    expect((await h.friends(ann)).map((f) => f.id)).toEqual([cat]);
    expect(await removals(ann, cat)).toBe(0);
    const search = await h.app.inject({
      method: 'GET',
      url: '/api/search-users?query=Ben',
      headers: as(cat),
    });
    expect(search.statusCode).toBe(503);

    await redis.restart({ emptyDir: true });
    await vi.waitFor(async () => expect((await h.unfriend(ann, cat)).statusCode).toBe(200), {
      timeout: 10_000,
      interval: 100,
    });
    expect(await h.friends(ann)).toEqual([]);
    expect(await removals(ann, cat)).toBe(1);
  });
});
