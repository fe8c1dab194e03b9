import { Redis } from 'ioredis';
import type { Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FriendshipCreated, FriendshipRemoved, makeEvent } from '@wayfarer/contracts';
import { testInfra, uniqueSuffix } from '@wayfarer/test-kit';
import { startRedisServer, type RedisServer } from '@wayfarer/test-kit/faults';
import {
  accountClosedFenceKey,
  connectFences,
  createLogger,
  FENCE_TTL_SECONDS,
  friendshipEndedFenceKey,
  FencesUnavailableError,
  type AccessFences,
} from '../src';
import { connectMongo, FriendshipProjection } from '../src/mongo';

/**
 * Access fences on a redis-server of the test's own (it is killed below), read through the
 * shared `FriendshipProjection` on a real MongoDB-wire server.
 */
describe('access fences (own redis-server, real MongoDB-wire server)', () => {
  let server: RedisServer;
  let client: MongoClient;
  let db: Db;
  let fences: AccessFences;
  let closeFences: () => Promise<void>;
  let raw: Redis;
  let friends: FriendshipProjection;
  const s = uniqueSuffix();
  const [ann, ben, cat] = [`ann${s}`, `ben${s}`, `cat${s}`];

  beforeAll(async () => {
    server = await startRedisServer();
    ({ client, db } = await connectMongo(testInfra().mongoUrl, `t_fences_${s}`));
    ({ fences, close: closeFences } = await connectFences(
      server.url,
      createLogger('test', 'silent'),
    ));
    raw = new Redis(server.url, { maxRetriesPerRequest: 0 });
    friends = new FriendshipProjection(db, fences);
    await friends.init();
  });
  afterAll(async () => {
    raw.disconnect();
    await closeFences();
    await server.stop();
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  });

  const at = (iso: string) => new Date(iso);
  const created = (a: string, b: string, when: string) =>
    makeEvent(FriendshipCreated, `${a}_${b}`, { userIds: [a, b] }, at(when));

  it('an ended friendship is refused at once, until the projection holds a newer event', async () => {
    await friends.apply(created(ann, ben, '2026-03-01T00:00:00.000Z'));
    await friends.apply(created(ann, cat, '2026-03-01T00:00:00.000Z'));
    expect(await friends.areFriends(ann, ben)).toBe(true);

    // social ended it at 10:00; the projection has not heard
    await fences.endFriendship(ben, ann, '2026-03-02T10:00:00.000Z');
    expect(await friends.areFriends(ann, ben)).toBe(false);
    expect(await friends.areFriends(ben, ann)).toBe(false);
    expect(await friends.friendsOf(ann)).toEqual([cat]);

    // the removal arrives, then a friendship made again: the newer record is believed
    await friends.apply(
      makeEvent(FriendshipRemoved, 'x', { userIds: [ann, ben] }, at('2026-03-02T10:00:00.000Z')),
    );
    expect(await friends.areFriends(ann, ben)).toBe(false);
    await friends.apply(created(ann, ben, '2026-03-02T11:00:00.000Z'));
    expect(await friends.areFriends(ann, ben)).toBe(true);
    expect((await friends.friendsOf(ann)).sort()).toEqual([ben, cat].sort());

    // the key names no user and expires
    const key = friendshipEndedFenceKey(ann, ben);
    expect(key).not.toContain(ann);
    expect(key).not.toContain(ben);
    expect(await raw.ttl(key)).toBeGreaterThan(FENCE_TTL_SECONDS.friendshipEnded - 60);
  });

  it('a lift removes only the fence it wrote', async () => {
    await fences.endFriendship(ann, cat, '2026-03-03T00:00:00.000Z');
    await fences.liftEndedFriendship(ann, cat, '2026-03-01T00:00:00.000Z');
    expect(await friends.areFriends(ann, cat)).toBe(false);
    await fences.liftEndedFriendship(ann, cat, '2026-03-03T00:00:00.000Z');
    expect(await friends.areFriends(ann, cat)).toBe(true);
  });

  it('a closed account ends every friendship of it, and is found among others', async () => {
    expect(await friends.areFriends(ann, cat)).toBe(true);
    await fences.closeAccount(cat);
    expect(await friends.areFriends(ann, cat)).toBe(false);
    expect(await friends.areFriends(cat, ann)).toBe(false);
    expect(await friends.friendsOf(ann)).toEqual([ben]);
    expect(await fences.isClosed(cat)).toBe(true);
    expect(await fences.isClosed(ann)).toBe(false);
    expect([...(await fences.closedAmong([ann, cat, ben]))]).toEqual([cat]);
    expect(accountClosedFenceKey(cat)).not.toContain(cat);
    expect(await raw.ttl(accountClosedFenceKey(cat))).toBeGreaterThan(
      FENCE_TTL_SECONDS.accountClosed - 60,
    );
  });

  it('with Redis killed every check fails closed (503), and works again once it is back', async () => {
    await server.kill();
    await expect(friends.areFriends(ann, ben)).rejects.toBeInstanceOf(FencesUnavailableError);
    await expect(friends.friendsOf(ann)).rejects.toMatchObject({ statusCode: 503 });
    await expect(fences.isClosed(ann)).rejects.toMatchObject({ statusCode: 503 });
    await expect(fences.endFriendship(ann, ben, new Date().toISOString())).rejects.toMatchObject({
      statusCode: 503,
    });
    // a pair the projection does not hold as friends needs no fence
    expect(await friends.areFriends(ann, `nobody${s}`)).toBe(false);

    await server.restart({ emptyDir: true });
    await vi.waitFor(async () => expect(await friends.areFriends(ann, ben)).toBe(true), {
      timeout: 10_000,
      interval: 50,
    });
  });
});
