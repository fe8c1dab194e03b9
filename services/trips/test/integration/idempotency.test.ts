import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAY_HEADER,
  IdempotencyMessages,
  type Trip,
} from '@wayfarer/contracts';
import { png } from '../fixtures';
import {
  as,
  multipart,
  newUserId,
  startTrips,
  tripFields,
  type FilePart,
  type Harness,
} from './harness';

let h: Harness;
let photo: Buffer;
let otherPhoto: Buffer;

beforeAll(async () => {
  h = await startTrips();
  photo = await png(64, 48);
  otherPhoto = await png(48, 64);
});

afterAll(async () => {
  await h?.close();
});

const OSLO = { name: 'Oslo', latitude: '59.91', longitude: '10.75', story: 'Fjords.' };

/**
 * `POST /api/trips` as `userId` with `key` as its Idempotency-Key; each call builds its body
 * anew (another multipart boundary), as a browser retrying the same FormData does.
 */
async function post(userId: string, key: string, name: string, image: Buffer = photo) {
  const files: FilePart[] = [{ field: 'photos[0]', data: image, filename: 'a.png' }];
  const body = await multipart(tripFields({ name }, [OSLO]), files);
  return h.app.inject({
    method: 'POST',
    url: '/api/trips',
    payload: body.payload,
    headers: { ...body.headers, [IDEMPOTENCY_KEY_HEADER]: key, ...as(userId) },
  });
}

/**
 * The user's trip documents, those with objects in the bucket, trip prefixes of the bucket with
 * no trip (anyone's), and the user's uploads still pending.
 */
async function stored(userId: string) {
  const trips = await h.trips.collection.find({ ownerId: userId }).toArray();
  const everyTrip = await h.trips.existingIds(
    (await h.trips.collection.find({}, { projection: { _id: 1 } }).toArray()).map((t) => t._id),
  );
  const prefixes = new Set((await h.photos.list()).map((key) => key.split('/')[0]!));
  return {
    trips: trips.length,
    tripsWithObjects: trips.filter((t) => prefixes.has(t._id)).length,
    strayPrefixes: [...prefixes].filter((p) => !everyTrip.has(p)).length,
    pending: await h.pending.collection.countDocuments({ ownerId: userId }),
  };
}

describe('POST /api/trips with an Idempotency-Key (real MongoDB-wire server + MinIO)', () => {
  it('answers a retry with the first answer (the same trip) and creates nothing', async () => {
    const ann = newUserId();
    const key = crypto.randomUUID();
    const first = await post(ann, key, 'Norway');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers[IDEMPOTENT_REPLAY_HEADER]).toBeUndefined();
    const after = await stored(ann);
    expect(after).toMatchObject({ trips: 1, tripsWithObjects: 1, pending: 0 });

    const retry = await post(ann, key, 'Norway');
    expect(retry.statusCode).toBe(201);
    expect(retry.body).toBe(first.body);
    expect(retry.headers[IDEMPOTENT_REPLAY_HEADER]).toBe('true');
    expect(await stored(ann)).toEqual(after);
    const list = await h.app.inject({ url: '/api/mytrips', headers: as(ann) });
    expect(list.json<Trip[]>().map((t) => t._id)).toEqual([first.json<Trip>()._id]);
    // the record stays out of what reads answer
    const read = await h.app.inject({
      url: `/api/trips/${first.json<Trip>()._id}`,
      headers: as(ann),
    });
    expect(read.body).not.toContain('idempotency');
  });

  it('answers the same key with another form 422 (another name, or other photo bytes)', async () => {
    const ann = newUserId();
    const key = crypto.randomUUID();
    expect((await post(ann, key, 'Norway')).statusCode).toBe(201);
    const before = await stored(ann);
    for (const other of [
      await post(ann, key, 'Sweden'),
      await post(ann, key, 'Norway', otherPhoto),
    ]) {
      expect(other.statusCode).toBe(422);
      expect(other.json()).toEqual({
        error: 'idempotency_key_reused',
        message: IdempotencyMessages.mismatch,
      });
    }
    expect(await stored(ann)).toEqual(before);
  });

  it("treats another user's same key as unrelated", async () => {
    const [ann, bob] = [newUserId(), newUserId()];
    const key = crypto.randomUUID();
    const a = await post(ann, key, 'Norway');
    const b = await post(bob, key, 'Norway');
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(b.headers[IDEMPOTENT_REPLAY_HEADER]).toBeUndefined();
    expect(b.json<Trip>()._id).not.toBe(a.json<Trip>()._id);
    expect((await stored(ann)).trips).toBe(1);
    expect((await stored(bob)).trips).toBe(1);
  });

  it('creates one trip for concurrent requests with the same key; the others leave no objects', async () => {
    const ann = newUserId();
    const key = crypto.randomUUID();
    const answers = await Promise.all([1, 2, 3].map(() => post(ann, key, 'Norway')));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(await stored(ann)).toEqual({
      trips: 1,
      tripsWithObjects: 1,
      strayPrefixes: 0,
      pending: 0,
    });
  });

  it('refuses a malformed key with a 400 before reading the form, creating nothing', async () => {
    const ann = newUserId();
    for (const bad of ['k'.repeat(129), 'two words']) {
      const res = await post(ann, bad, 'Norway');
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toBe(IdempotencyMessages.badKey);
    }
    expect((await stored(ann)).trips).toBe(0);
  });

  it('records no key for a refused form: the same key then creates', async () => {
    const ann = newUserId();
    const key = crypto.randomUUID();
    expect((await post(ann, key, 'Norway', Buffer.from('not an image'))).statusCode).toBe(400);
    expect((await post(ann, key, 'Norway')).statusCode).toBe(201);
    expect((await stored(ann)).trips).toBe(1);
  });
});
