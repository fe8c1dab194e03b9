import { randomUUID } from 'node:crypto';
import type { Collection, Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyLimits } from '@wayfarer/contracts';
import { testInfra, uniqueSuffix } from '@wayfarer/test-kit';
import { recordedAnswer, type IdempotencyClaim } from '../src/idempotency';
import {
  connectMongo,
  MongoIdempotency,
  type IdempotencyRecord,
  type WithIdempotency,
} from '../src/mongo';
import { statusOf, thingClaim as claim } from './idempotency-helpers';

interface ThingDoc extends WithIdempotency {
  _id: string;
  owner: string;
  name: string;
}

describe('idempotent creates in MongoDB (real MongoDB-wire server)', () => {
  let client: MongoClient;
  let db: Db;
  let things: Collection<ThingDoc>;
  let clock = Date.now();
  let idem: MongoIdempotency;

  beforeAll(async () => {
    ({ client, db } = await connectMongo(testInfra().mongoUrl, `kit_idem_${uniqueSuffix()}`));
    things = db.collection<ThingDoc>('things');
    idem = new MongoIdempotency(things, () => new Date(clock));
    await idem.init();
  });

  afterAll(async () => {
    await db?.dropDatabase();
    await client?.close();
  });

  const undone: string[] = [];
  /** Inserts a thing after `delayMs` (work before the write), undoing its work on failure. */
  const make = (c: IdempotencyClaim | null, owner: string, name: string, delayMs = 0) =>
    idem.run(c, async (stamp) => {
      const _id = randomUUID();
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      const answer = recordedAnswer(201, { _id, name });
      try {
        await things.insertOne({ _id, owner, name, ...stamp(answer) });
      } catch (err) {
        undone.push(_id);
        throw err;
      }
      return { answer, value: _id };
    });
  const count = (owner: string) => things.countDocuments({ owner });

  it('answers a retry with the first answer and creates nothing; another body is a 422', async () => {
    const ann = randomUUID();
    const first = await make(claim(ann, 'k1', 'Rome'), ann, 'Rome');
    expect(first.replayed).toBe(false);
    expect(await make(claim(ann, 'k1', 'Rome'), ann, 'Rome')).toEqual({
      replayed: true,
      answer: first.answer,
    });
    expect(await statusOf(() => make(claim(ann, 'k1', 'Oslo'), ann, 'Oslo'))).toBe(422);
    expect(await count(ann)).toBe(1);
    // without a key, creates are plain (and documents without one share the sparse index)
    await make(null, ann, 'Rome');
    await make(null, ann, 'Rome');
    expect(await count(ann)).toBe(3);
  });

  it("keeps another user's same key apart", async () => {
    const [ann, bob] = [randomUUID(), randomUUID()];
    await make(claim(ann, 'shared', 'Lima'), ann, 'Lima');
    expect((await make(claim(bob, 'shared', 'Lima'), bob, 'Lima')).replayed).toBe(false);
    expect([await count(ann), await count(bob)]).toEqual([1, 1]);
  });

  it('lets concurrent same-key requests create once: the unique index refuses the others, which undo their work and replay', async () => {
    const ann = randomUUID();
    undone.length = 0;
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => make(claim(ann, 'k-concurrent', 'Kyiv'), ann, 'Kyiv', 50)),
    );
    expect(outcomes.filter((o) => !o.replayed)).toHaveLength(1);
    expect(new Set(outcomes.map((o) => o.answer.body)).size).toBe(1);
    expect(await count(ann)).toBe(1);
    expect(undone).toHaveLength(4);
  });

  it('lets an upsert of an existing document write once per key, even concurrently', async () => {
    interface Entry extends WithIdempotency {
      _id: string;
      text: string;
      writes: number;
    }
    const entries = db.collection<Entry>('entries');
    const entryKeys = new MongoIdempotency(entries);
    await entryKeys.init();
    const ann = randomUUID();
    /** Sets an entry's text (an upsert, retried once on an `_id` race as journal does). */
    const save = (c: IdempotencyClaim, id: string, text: string) =>
      entryKeys.run(c, async (stamp, notHoldingKey) => {
        const answer = recordedAnswer(200, { saved: text });
        const write = () =>
          entries.updateOne(
            { _id: id, ...notHoldingKey },
            { $set: { text, ...stamp(answer) }, $inc: { writes: 1 } },
            { upsert: true },
          );
        try {
          await write();
        } catch (err) {
          if ((err as { code?: number }).code !== 11000) throw err;
          await write();
        }
        return { answer, value: null };
      });
    const writes = async (id: string) => (await entries.findOne({ _id: id }))?.writes ?? 0;

    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => save(claim(ann, 'k1', 'a'), 'e1', 'a')),
    );
    expect(outcomes.filter((o) => !o.replayed)).toHaveLength(1);
    expect(await writes('e1')).toBe(1);
    expect((await save(claim(ann, 'k2', 'b'), 'e1', 'b')).replayed).toBe(false);
    expect((await save(claim(ann, 'k2', 'b'), 'e1', 'b')).replayed).toBe(true);
    expect(await writes('e1')).toBe(2);
    // the key of one entry's save sent for another entry: refused by the unique index, 422
    expect(await statusOf(() => save(claim(ann, 'k2', 'c'), 'e2', 'c'))).toBe(422);
    expect(await writes('e2')).toBe(0);
  });

  it('keeps a second kind of keyed write to the same documents in a field of its own', async () => {
    interface Album extends WithIdempotency {
      _id: string;
      photos: string[];
      added?: IdempotencyRecord;
    }
    const albums = db.collection<Album>('albums');
    const created = new MongoIdempotency(albums);
    const adds = new MongoIdempotency<Pick<Album, 'added'>>(albums, () => new Date(clock), {
      field: 'added',
    });
    await created.init();
    await adds.init();
    const ann = randomUUID();
    const answer = recordedAnswer(201, { ok: true });
    await created.run(claim(ann, 'create', 'a1'), async (stamp) => {
      await albums.insertOne({ _id: 'a1', photos: [], ...stamp(answer) });
      return { answer, value: null };
    });
    const add = (key: string, photo: string) =>
      adds.run(claim(ann, key, photo), async (stamp, notHoldingKey) => {
        const result = await albums.updateOne(
          { _id: 'a1', ...notHoldingKey },
          { $push: { photos: photo }, $set: stamp(answer) },
        );
        if (result.modifiedCount !== 1) throw Object.assign(new Error('dup'), { code: 11000 });
        return { answer, value: null };
      });
    expect((await add('p1', 'x')).replayed).toBe(false);
    expect((await add('p1', 'x')).replayed).toBe(true);
    expect((await add('p2', 'y')).replayed).toBe(false);
    const album = await albums.findOne({ _id: 'a1' });
    expect(album?.photos).toEqual(['x', 'y']);
    // the create's record is untouched by the adds, and still answers its retry
    expect(album?.idempotency?.scope).toBe(JSON.stringify([ann, 'create']));
    expect(album?.added?.scope).toBe(JSON.stringify([ann, 'p2']));
    expect(await created.find(claim(ann, 'create', 'a1'))).toEqual(answer);
    // the same key in the other field is another key
    expect((await add('create', 'z')).replayed).toBe(false);
    expect(await statusOf(() => add('create', 'w'))).toBe(422);
    // a document holds its latest record of each kind: p2's was replaced
    expect((await albums.findOne({ _id: 'a1' }))?.photos).toEqual(['x', 'y', 'z']);
  });

  it('forgets a key after the retention, and the pruner takes expired records off', async () => {
    const ann = randomUUID();
    await make(claim(ann, 'k-old', 'Bern'), ann, 'Bern');
    clock += IdempotencyLimits.retentionMs - 60_000;
    expect((await make(claim(ann, 'k-old', 'Bern'), ann, 'Bern')).replayed).toBe(true);
    clock += 120_000;
    // expired: taken off its document at once, so the same key creates again
    expect((await make(claim(ann, 'k-old', 'Bern'), ann, 'Bern')).replayed).toBe(false);
    expect(await count(ann)).toBe(2);

    clock += IdempotencyLimits.retentionMs + 60_000;
    expect(await things.countDocuments({ owner: ann, idempotency: { $exists: true } })).toBe(1);
    expect(await idem.prune()).toBeGreaterThanOrEqual(1);
    expect(await things.countDocuments({ owner: ann, idempotency: { $exists: true } })).toBe(0);
    expect(await count(ann)).toBe(2); // the documents stay
  });
});
