import type { Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FriendshipCreated,
  FriendshipRemoved,
  makeEvent,
  UserRegistered,
} from '@wayfarer/contracts';
import { testInfra, uniqueSuffix } from '@wayfarer/test-kit';
import { connectFences, createLogger } from '../src';
import { connectMongo, FriendshipProjection } from '../src/mongo';

describe('FriendshipProjection (real MongoDB-wire server)', () => {
  let client: MongoClient;
  let db: Db;
  let friends: FriendshipProjection;
  let closeFences: () => Promise<void>;

  beforeAll(async () => {
    ({ client, db } = await connectMongo(testInfra().mongoUrl, `t_friends_${uniqueSuffix()}`));
    const fences = await connectFences(testInfra().redisUrl, createLogger('test', 'silent'));
    closeFences = fences.close;
    friends = new FriendshipProjection(db, fences.fences);
    await friends.init();
  });
  afterAll(async () => {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
    await closeFences();
  });

  it('follows created and removed friendships, both ways', async () => {
    const t0 = new Date('2026-01-01T00:00:00Z');
    const t1 = new Date('2026-01-02T00:00:00Z');
    const created = makeEvent(FriendshipCreated, 'a_b', { userIds: ['b', 'a'] }, t0);
    expect(await friends.apply(created)).toBe(true);
    expect(await friends.areFriends('a', 'b')).toBe(true);
    expect(await friends.areFriends('b', 'a')).toBe(true);
    expect(await friends.areFriends('a', 'c')).toBe(false);
    expect(await friends.friendsOf('a')).toEqual(['b']);

    await friends.apply(makeEvent(FriendshipRemoved, 'a_b', { userIds: ['a', 'b'] }, t1));
    expect(await friends.areFriends('a', 'b')).toBe(false);
    // a redelivered older event does not bring the friendship back
    await friends.apply(created);
    expect(await friends.areFriends('a', 'b')).toBe(false);
  });

  it('forgets a pair whose friendship was erased, and every pair of an erased user', async () => {
    const t0 = new Date('2026-02-01T00:00:00Z');
    const t1 = new Date('2026-02-02T00:00:00Z');
    const stored = () => db.collection('friendships').countDocuments({ userIds: 'gone' });
    await friends.apply(makeEvent(FriendshipCreated, 'gone_x', { userIds: ['gone', 'x'] }, t0));
    await friends.apply(makeEvent(FriendshipCreated, 'gone_y', { userIds: ['gone', 'y'] }, t0));
    await friends.apply(makeEvent(FriendshipRemoved, 'gone_y', { userIds: ['gone', 'y'] }, t1));
    await friends.apply(makeEvent(FriendshipCreated, 'x_y', { userIds: ['x', 'y'] }, t0));
    expect(await stored()).toBe(2); // an unfriending keeps an inactive record

    const erased = makeEvent(FriendshipRemoved, 'gone_x', {
      userIds: ['gone', 'x'],
      erased: true,
    });
    expect(await friends.apply(erased)).toBe(true);
    expect(await friends.areFriends('gone', 'x')).toBe(false);
    expect(await stored()).toBe(1);
    // erased again (a redelivery, or a pair never seen): nothing is written back
    await friends.apply(erased);
    await friends.apply(
      makeEvent(FriendshipRemoved, 'gone_z', { userIds: ['gone', 'z'], erased: true }),
    );
    expect(await stored()).toBe(1);

    expect(await friends.forget('gone')).toBe(1);
    expect(await stored()).toBe(0);
    expect(await friends.areFriends('x', 'y')).toBe(true);
  });

  it('ignores other events', async () => {
    const other = makeEvent(UserRegistered, 'u', {
      userId: 'u',
      name: 'U',
      email: 'u@x.io',
      profilePicture: '/a',
    });
    expect(await friends.apply(other)).toBe(false);
  });
});
