import { describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAY_HEADER,
  IdempotencyMessages,
  SocialMessages,
} from '@wayfarer/contracts';
import { as, type Harness, socialPerFile } from './harness';

let h: Harness;
socialPerFile((harness) => (h = harness));

/** `POST /api/add-friend/{id}` as `userId` with `key` as its Idempotency-Key. */
const addFriend = (userId: string, id: string, key: string) =>
  h.app.inject({
    method: 'POST',
    url: `/api/add-friend/${encodeURIComponent(id)}`,
    headers: { [IDEMPOTENCY_KEY_HEADER]: key, ...as(userId) },
  });

const keys = async () =>
  (await h.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM idempotency_keys')).rows[0]!.n;

describe('POST /api/add-friend/{id} with an Idempotency-Key (real PostgreSQL)', () => {
  it('answers a retry with the first answer and sends no second request, even after a decline', async () => {
    const ann = await h.register('Ann Key');
    const bob = await h.register('Bob Key');
    const key = crypto.randomUUID();
    const first = await addFriend(ann, bob, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ status: 'requested', message: SocialMessages.requestSent });
    expect(first.headers[IDEMPOTENT_REPLAY_HEADER]).toBeUndefined();
    expect((await h.decline(bob, ann)).statusCode).toBe(200);
    const before = await h.counts();

    // the answer to the first was lost; its retry must not ask bob again
    const retry = await addFriend(ann, bob, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.body).toBe(first.body);
    expect(retry.headers[IDEMPOTENT_REPLAY_HEADER]).toBe('true');
    expect(await h.counts()).toEqual(before);
    expect(await h.requests(bob)).toEqual([]);
  });

  it('replays a friendship made by the first request (not "already friends")', async () => {
    const cat = await h.register('Cat Key');
    const dan = await h.register('Dan Key');
    expect((await h.addFriend(dan, cat)).statusCode).toBe(200);
    const key = crypto.randomUUID();
    const first = await addFriend(cat, dan, key);
    expect(first.json()).toEqual({ status: 'friends', message: SocialMessages.nowFriends });
    const before = await h.counts();
    const retry = await addFriend(cat, dan, key);
    expect([retry.statusCode, retry.body]).toEqual([200, first.body]);
    expect(await h.counts()).toEqual(before);
    // without the key it is what it is now
    expect((await h.addFriend(cat, dan)).statusCode).toBe(409);
  });

  it('answers the same key for another addressee 422, changing nothing', async () => {
    const eve = await h.register('Eve Key');
    const fay = await h.register('Fay Key');
    const gus = await h.register('Gus Key');
    const key = crypto.randomUUID();
    expect((await addFriend(eve, fay, key)).statusCode).toBe(200);
    const before = await h.counts();
    const other = await addFriend(eve, gus, key);
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toBe(IdempotencyMessages.mismatch);
    expect(await h.counts()).toEqual(before);
    expect(await h.requests(gus)).toEqual([]);
  });

  it("treats another user's same key as unrelated", async () => {
    const [hal, ivy, jon] = await Promise.all([
      h.register('Hal Key'),
      h.register('Ivy Key'),
      h.register('Jon Key'),
    ]);
    const key = crypto.randomUUID();
    expect((await addFriend(hal, jon, key)).statusCode).toBe(200);
    const ivys = await addFriend(ivy, jon, key);
    expect(ivys.statusCode).toBe(200);
    expect(ivys.headers[IDEMPOTENT_REPLAY_HEADER]).toBeUndefined();
    expect((await h.requests(jon)).map((r) => r._id).sort()).toEqual([hal, ivy].sort());
  });

  it('sends one request for concurrent requests with the same key, all answered alike', async () => {
    const kim = await h.register('Kim Key');
    const lou = await h.register('Lou Key');
    const key = crypto.randomUUID();
    const before = await h.counts();
    const keysBefore = await keys();
    const answers = await Promise.all(Array.from({ length: 5 }, () => addFriend(kim, lou, key)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(5).fill(200));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    const after = await h.counts();
    expect(after.requests - before.requests).toBe(1);
    expect(after.outbox - before.outbox).toBe(1); // one friend.requested
    expect((await keys()) - keysBefore).toBe(1);
  });

  it('refuses a malformed key with a 400 and records nothing for a refusal', async () => {
    const max = await h.register('Max Key');
    const before = await h.counts();
    const keysBefore = await keys();
    const bad = await addFriend(max, crypto.randomUUID(), 'bad key');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(IdempotencyMessages.badKey);
    const key = crypto.randomUUID();
    expect((await addFriend(max, max, key)).statusCode).toBe(400); // yourself
    expect((await addFriend(max, crypto.randomUUID(), key)).statusCode).toBe(404); // unknown
    expect(await h.counts()).toEqual(before);
    expect(await keys()).toBe(keysBefore);
  });
});
