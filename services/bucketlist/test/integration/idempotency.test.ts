import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAY_HEADER,
  IdempotencyMessages,
} from '@wayfarer/contracts';
import { as, newUserId, startBucketList, type Harness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startBucketList();
});

afterAll(async () => {
  await h?.close();
});

const PARIS = { place: 'Paris, France', latitude: 48.8566, longitude: 2.3522, isVisited: false };
const LIMA = { place: 'Lima, Peru', latitude: -12.0464, longitude: -77.0428, isVisited: false };

/** `POST /api/bucketlist` as `userId` with `key` as its Idempotency-Key. */
const add = (userId: string, key: string, body: unknown) =>
  h.app.inject({
    method: 'POST',
    url: '/api/bucketlist',
    headers: { 'content-type': 'application/json', [IDEMPOTENCY_KEY_HEADER]: key, ...as(userId) },
    payload: JSON.stringify(body),
  });

/** Rows of the user's items, of all outbox events and of recorded keys. */
async function counts(userId: string) {
  const { rows } = await h.pool.query<{ items: number; outbox: number; keys: number }>(
    `SELECT (SELECT count(*) FROM bucket_items WHERE owner_id = $1)::int AS items,
            (SELECT count(*) FROM outbox)::int AS outbox,
            (SELECT count(*) FROM idempotency_keys)::int AS keys`,
    [userId],
  );
  return rows[0]!;
}

describe('POST /api/bucketlist with an Idempotency-Key (real PostgreSQL)', () => {
  it('answers a retry with the first answer and adds nothing', async () => {
    const ann = newUserId();
    const key = crypto.randomUUID();
    const first = await add(ann, key, PARIS);
    expect(first.statusCode).toBe(201);
    expect(first.headers[IDEMPOTENT_REPLAY_HEADER]).toBeUndefined();
    const after = await counts(ann);
    expect(after.items).toBe(1);

    const retry = await add(ann, key, PARIS);
    expect(retry.statusCode).toBe(201);
    expect(retry.body).toBe(first.body);
    expect(retry.headers['content-type']).toBe(first.headers['content-type']);
    expect(retry.headers[IDEMPOTENT_REPLAY_HEADER]).toBe('true');
    expect(await counts(ann)).toEqual(after); // no item, no event, no key
    expect(await h.list(ann)).toHaveLength(1);
  });

  it('answers the same key with another body 422, changing nothing', async () => {
    const ann = newUserId();
    const key = crypto.randomUUID();
    expect((await add(ann, key, PARIS)).statusCode).toBe(201);
    const before = await counts(ann);
    const other = await add(ann, key, LIMA);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({
      error: 'idempotency_key_reused',
      message: IdempotencyMessages.mismatch,
    });
    expect(await counts(ann)).toEqual(before);
  });

  it("treats another user's same key as unrelated", async () => {
    const [ann, bob] = [newUserId(), newUserId()];
    const key = crypto.randomUUID();
    const a = await add(ann, key, PARIS);
    const b = await add(bob, key, PARIS);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(b.headers[IDEMPOTENT_REPLAY_HEADER]).toBeUndefined();
    expect(b.json().data._id).not.toBe(a.json().data._id);
    expect((await counts(ann)).items).toBe(1);
    expect((await counts(bob)).items).toBe(1);
    // and bob's key with another body is still his own first use, not ann's 422
    expect((await add(bob, crypto.randomUUID(), LIMA)).statusCode).toBe(201);
  });

  it('adds one place for concurrent requests with the same key, all answered alike', async () => {
    const ann = newUserId();
    const key = crypto.randomUUID();
    const answers = await Promise.all(Array.from({ length: 6 }, () => add(ann, key, PARIS)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers.filter((a) => a.headers[IDEMPOTENT_REPLAY_HEADER] === undefined)).toHaveLength(
      1,
    );
    expect((await counts(ann)).items).toBe(1);
  });

  it('refuses a malformed key with a 400 before adding anything', async () => {
    const ann = newUserId();
    const before = await counts(ann);
    for (const bad of ['x'.repeat(129), 'with space', 'tab\there']) {
      const res = await add(ann, bad, PARIS);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toBe(IdempotencyMessages.badKey);
    }
    expect(await counts(ann)).toEqual(before);
  });

  it('fingerprints what the route read, so a deeply nested body is answered, not a 500', async () => {
    const ann = newUserId();
    const deep = `${'['.repeat(60_000)}${']'.repeat(60_000)}`;
    const junk = `{"place":"Oslo","latitude":59.9,"longitude":10.7,"junk":${deep}}`;
    const key = crypto.randomUUID();
    const raw = (payload: string) =>
      h.app.inject({
        method: 'POST',
        url: '/api/bucketlist',
        headers: { 'content-type': 'application/json', [IDEMPOTENCY_KEY_HEADER]: key, ...as(ann) },
        payload,
      });
    const res = await raw(junk);
    expect(res.statusCode, res.body).toBe(201); // the schema drops the unknown key
    // the same place without the junk is the same request
    const again = await add(ann, key, { place: 'Oslo', latitude: 59.9, longitude: 10.7 });
    expect([again.statusCode, again.body]).toEqual([201, res.body]);
    expect((await raw(deep)).statusCode).toBe(400);
  });

  it('records nothing for a refused request: the key is still free', async () => {
    const ann = newUserId();
    const key = crypto.randomUUID();
    expect((await add(ann, key, { ...PARIS, latitude: 200 })).statusCode).toBe(400);
    expect((await add(ann, key, PARIS)).statusCode).toBe(201);
    expect((await counts(ann)).items).toBe(1);
  });
});
